'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { usePathname, useRouter } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import { signOut } from 'next-auth/react';
import { useTheme } from 'next-themes';
import { BarChart3, BookOpen, Building2, ChevronsUpDown, CircleUser, CreditCard, FileText, FlaskConical, Gauge, Image as ImageIcon, KeyRound, LogOut, Menu, Plus, Monitor, Moon, ScrollText, Settings, Sun, UserCog, Users, Webhook } from 'lucide-react';
import { apiErrorOf, useTRPC, errorStatus } from '@/console-client/trpc';
import { TwoFactorSection } from '@/components/account/two-factor-section';
import { canSee, ScopeProvider, SCREENS, type Mode, type Role, type ScreenSlug } from '@/console-client/scope';
import { Button } from '@/components/ui/button';
import { CreateOrganizationDialog } from './create-organization';
import { cn } from '@/components/ui/cn';
import { Switch } from '@/components/ui/switch';
import { Label } from '@/components/ui/label';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { Sheet } from '@/components/ui/sheet';
import { NoMembership } from './no-membership';
import { NavigationProgress, useConsoleRouter } from './navigation-progress';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

const ICONS: Record<ScreenSlug, React.ComponentType<{ className?: string; 'aria-hidden'?: boolean }>> = {
  overview: Gauge,
  keys: KeyRound,
  logs: FileText,
  generations: ImageIcon,
  playground: FlaskConical,
  billing: CreditCard,
  usage: BarChart3,
  members: Users,
  webhooks: Webhook,
  audit: ScrollText,
  settings: Settings,
};

/** The screen slug of a console path: /o/<org>/<mode>/<screen>/… */
function screenOf(pathname: string): string | undefined {
  return pathname.split('/')[4];
}

/**
 * The console's frame: sidebar with the screens the member's role may use, the organization
 * switcher, the test/live switch (test mode marked by a banner, as Stripe does) and the user menu.
 */
export function ConsoleShell({
  organizationId,
  mode,
  canCreateOrganization,
  children,
}: {
  organizationId: string;
  mode: Mode;
  /** Open sign-up: a user without this organization may open one of their own. */
  canCreateOrganization: boolean;
  children: React.ReactNode;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const me = useQuery(trpc.me.get.queryOptions());
  const status = me.isError ? errorStatus(me.error) : undefined;
  const secondFactorPending = me.isError && apiErrorOf(me.error)?.code === 'second_factor_required';

  React.useEffect(() => {
    if (status === 401) router.replace(`${secondFactorPending ? '/sign-in/two-factor' : '/sign-in'}?callbackUrl=${encodeURIComponent(pathname)}`);
  }, [status, secondFactorPending, router, pathname]);

  if (me.isPending || status === 401) {
    return (
      <div className="mx-auto max-w-5xl p-8">
        <LoadingRows label="Loading the console" />
      </div>
    );
  }
  if (me.isError) {
    return (
      <div className="mx-auto max-w-xl p-8">
        <ErrorState error={me.error} onRetry={() => void me.refetch()} />
      </div>
    );
  }
  const organizations = me.data.organizations;
  const current = organizations.find((o) => o.id === organizationId);
  if (!current) {
    // Removed from this organization (or never a member): say so, and offer the way out.
    return <NoMembership organizationId={organizationId} organizations={organizations} mode={mode} canCreateOrganization={canCreateOrganization} />;
  }
  const role = current.role as Role;
  const base = `/o/${organizationId}/${mode}`;
  const screen = screenOf(pathname) as ScreenSlug | undefined;
  const allowed = !screen || !SCREENS.some((s) => s.slug === screen) || canSee(role, screen);
  // The organization requires two-factor sign-in and the user has none: enrol first (the account page stays open).
  const mustEnrol = me.data.two_factor.required_by.includes(organizationId) && !me.data.two_factor.enabled && (screen as string | undefined) !== 'account';

  return (
    <ScopeProvider scope={{ organizationId, mode, role, base }}>
      <NavigationProgress>
      <div className="flex min-h-screen flex-col">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-background focus:p-2">
          Skip to content
        </a>
        {mode === 'test' ? (
          <div role="status" data-testid="test-mode-banner" className="bg-warning py-1 text-center text-xs font-semibold text-warning-foreground">
            TEST MODE — you are viewing test data. Nothing here is charged.
          </div>
        ) : null}
        <div className="flex min-w-0 flex-1">
          <aside className="hidden w-60 shrink-0 flex-col gap-4 border-r bg-muted/30 p-3 md:flex">
            <OrganizationSwitcher organizations={organizations} currentId={organizationId} mode={mode} />
            <ConsoleNav role={role} base={base} screen={screen} />
            <ApiReferenceLink />
          </aside>
          <div className="flex min-w-0 flex-1 flex-col">
            <header className="flex h-14 min-w-0 items-center justify-between gap-2 border-b px-3 sm:gap-4 sm:px-4">
              <MobileNav role={role} base={base} screen={screen} organizations={organizations} currentId={organizationId} mode={mode} />
              <div className="ml-auto flex min-w-0 items-center gap-2 sm:gap-4">
                <ModeSwitch mode={mode} />
                <UserMenu email={me.data.user.email} accountHref={`${base}/account`} />
              </div>
            </header>
            <main id="main" className="min-w-0 flex-1 p-4 md:p-8">
              {mustEnrol ? <EnrolFirst organizationName={current.name} /> : allowed ? children : <NotForRole role={role} />}
            </main>
          </div>
        </div>
      </div>
      </NavigationProgress>
    </ScopeProvider>
  );
}

/** The API reference (/docs) is a page of its own, outside the console: a plain link. */
function ApiReferenceLink() {
  return (
    <a
      href="/docs"
      data-testid="api-reference-link"
      className="mt-auto flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <BookOpen className="size-4" aria-hidden />
      API reference
    </a>
  );
}

function EnrolFirst({ organizationName }: { organizationName: string }) {
  return (
    <div className="flex max-w-2xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Two-factor sign-in required</h1>
      <p className="text-muted-foreground">{organizationName} requires two-factor sign-in of every member. Set it up to continue; it protects your account in every organization.</p>
      <TwoFactorSection required />
    </div>
  );
}

function NotForRole({ role }: { role: Role }) {
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-xl font-semibold">Not available</h1>
      <p className="text-muted-foreground">This screen is not available to the {role} role. Ask an owner or admin.</p>
    </div>
  );
}

/** The screens the role may open, as links (the sidebar, and the drawer on small screens). */
function ConsoleNav({ role, base, screen, onNavigate }: { role: Role; base: string; screen: string | undefined; onNavigate?: () => void }) {
  return (
    <nav aria-label="Console">
      <ul className="flex flex-col gap-0.5">
        {SCREENS.filter((s) => canSee(role, s.slug)).map((s) => {
          const Icon = ICONS[s.slug];
          const active = screen === s.slug;
          return (
            <li key={s.slug}>
              <Link
                href={`${base}/${s.slug}`}
                onClick={onNavigate}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  active && 'bg-accent font-medium',
                )}
              >
                <Icon className="size-4" aria-hidden />
                {s.title}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** Below the md breakpoint the sidebar collapses into a menu button that opens it as a drawer. */
function MobileNav({
  role,
  base,
  screen,
  organizations,
  currentId,
  mode,
}: {
  role: Role;
  base: string;
  screen: string | undefined;
  organizations: { id: string; name: string; role: string }[];
  currentId: string;
  mode: Mode;
}) {
  const [open, setOpen] = React.useState(false);
  const pathname = usePathname();
  // A navigation (a link, the organization switcher) closes the drawer.
  const [shownFor, setShownFor] = React.useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  return (
    <div className="md:hidden">
      <Button variant="outline" size="icon" aria-label="Open the console menu" aria-expanded={open} onClick={() => setOpen(true)} data-testid="menu-button">
        <Menu aria-hidden />
      </Button>
      <Sheet open={open} onOpenChange={setOpen} side="left" title="Roomtone console" description="Organization and screens" className="max-w-72">
        <OrganizationSwitcher organizations={organizations} currentId={currentId} mode={mode} />
        <ConsoleNav role={role} base={base} screen={screen} onNavigate={() => setOpen(false)} />
        <ApiReferenceLink />
      </Sheet>
    </div>
  );
}

function OrganizationSwitcher({ organizations, currentId, mode }: { organizations: { id: string; name: string; role: string }[]; currentId: string; mode: Mode }) {
  const router = useConsoleRouter();
  const current = organizations.find((o) => o.id === currentId);
  const [creating, setCreating] = React.useState(false);
  return (
    <>
    <CreateOrganizationDialog open={creating} onOpenChange={setCreating} />
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="outline"
          className="h-auto min-h-9 w-full justify-between py-1.5 whitespace-normal"
          aria-label={`Organization: ${current?.name ?? currentId}. Switch organization`}
        >
          <span className="flex min-w-0 items-center gap-2 text-left">
            <Building2 aria-hidden />
            {/* Long names wrap (up to two lines) instead of being cut with room to spare. */}
            <span className="line-clamp-2 break-words" title={current?.name ?? currentId} data-testid="organization-name">
              {current?.name ?? currentId}
            </span>
          </span>
          <ChevronsUpDown className="opacity-60" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-60 max-w-[calc(100vw-2rem)]">
        <DropdownMenuLabel>Organizations</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={currentId} onValueChange={(id) => router.push(`/o/${id}/${mode}/overview`)}>
          {organizations.map((o) => (
            <DropdownMenuRadioItem key={o.id} value={o.id}>
              <span className="min-w-0 break-words">{o.name}</span>
              <span className="ml-auto text-xs text-muted-foreground">{o.role}</span>
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => setCreating(true)}>
          <Plus aria-hidden /> Create organization
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
    </>
  );
}

/** Test ⇄ live keeps the screen (and drops its query: ids are per mode). */
function ModeSwitch({ mode }: { mode: Mode }) {
  const router = useConsoleRouter();
  const pathname = usePathname();
  const id = React.useId();
  const toggle = (test: boolean) => {
    const parts = pathname.split('/');
    parts[3] = test ? 'test' : 'live';
    router.push(parts.slice(0, 5).join('/'));
  };
  return (
    <div className="flex items-center gap-2">
      <Switch id={id} checked={mode === 'test'} onCheckedChange={toggle} data-testid="mode-switch" />
      <Label htmlFor={id} className={cn('text-sm whitespace-nowrap', mode === 'test' && 'font-semibold')}>
        Test mode
      </Label>
    </div>
  );
}

function UserMenu({ email, accountHref }: { email: string; accountHref: string }) {
  const router = useConsoleRouter();
  const { theme, setTheme } = useTheme();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Account: ${email}`} data-testid="user-menu">
          <CircleUser aria-hidden />
          <span className="hidden max-w-48 truncate sm:inline" title={email}>
            {email}
          </span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Theme</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={theme ?? 'system'} onValueChange={setTheme}>
          <DropdownMenuRadioItem value="light">
            <Sun aria-hidden /> Light
          </DropdownMenuRadioItem>
          <DropdownMenuRadioItem value="dark">
            <Moon aria-hidden /> Dark
          </DropdownMenuRadioItem>
          <DropdownMenuRadioItem value="system">
            <Monitor aria-hidden /> System
          </DropdownMenuRadioItem>
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => router.push(accountHref)}>
          <UserCog aria-hidden /> Account and password
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void signOut({ redirectTo: '/sign-in' })}>
          <LogOut aria-hidden /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
