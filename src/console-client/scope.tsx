'use client';
import * as React from 'react';

export type Mode = 'test' | 'live';
export type Role = 'owner' | 'admin' | 'developer';

/** The organization and mode of the URL, and the member's role there: every screen's scope. */
export interface ConsoleScope {
  organizationId: string;
  mode: Mode;
  role: Role;
  /** `/o/<org>/<mode>` — screens link with `${base}/logs`. */
  base: string;
}

const ScopeContext = React.createContext<ConsoleScope | null>(null);

export function ScopeProvider({ scope, children }: { scope: ConsoleScope; children: React.ReactNode }) {
  return <ScopeContext.Provider value={scope}>{children}</ScopeContext.Provider>;
}

export function useScope(): ConsoleScope {
  const scope = React.useContext(ScopeContext);
  if (!scope) throw new Error('useScope outside the console shell');
  return scope;
}

/** The `{ organizationId, mode }` every member procedure's input starts with. */
export function useScopeInput(): { organizationId: string; mode: Mode } {
  const { organizationId, mode } = useScope();
  return React.useMemo(() => ({ organizationId, mode }), [organizationId, mode]);
}

/** Screens each role may open (the server enforces it too; docs/console.md has the matrix). */
export const SCREENS = [
  { slug: 'overview', title: 'Overview', roles: ['owner', 'admin', 'developer'] },
  { slug: 'keys', title: 'API keys', roles: ['owner', 'admin', 'developer'] },
  { slug: 'logs', title: 'Request log', roles: ['owner', 'admin', 'developer'] },
  { slug: 'generations', title: 'Generations', roles: ['owner', 'admin', 'developer'] },
  { slug: 'playground', title: 'Playground', roles: ['owner', 'admin', 'developer'] },
  { slug: 'billing', title: 'Billing', roles: ['owner', 'admin'] },
  { slug: 'usage', title: 'Usage', roles: ['owner', 'admin', 'developer'] },
  { slug: 'members', title: 'Members', roles: ['owner', 'admin'] },
  { slug: 'webhooks', title: 'Webhooks', roles: ['owner', 'admin'] },
  { slug: 'audit', title: 'Audit log', roles: ['owner', 'admin'] },
  { slug: 'settings', title: 'Settings', roles: ['owner', 'admin', 'developer'] },
] as const satisfies readonly { slug: string; title: string; roles: readonly Role[] }[];

export type ScreenSlug = (typeof SCREENS)[number]['slug'];

export function canSee(role: Role, slug: ScreenSlug): boolean {
  return (SCREENS.find((s) => s.slug === slug)?.roles as readonly Role[] | undefined)?.includes(role) ?? false;
}
