import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { ConsoleShell } from '@/components/shell/console-shell';

export default async function ConsoleLayout({ children, params }: { children: ReactNode; params: Promise<{ orgId: string; mode: string }> }) {
  const { orgId, mode } = await params;
  if (mode !== 'test' && mode !== 'live') notFound();
  return (
    <ConsoleShell organizationId={orgId} mode={mode}>
      {children}
    </ConsoleShell>
  );
}
