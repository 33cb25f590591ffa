'use client';
import * as React from 'react';
import { useQuery } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { useTRPC } from '@/console-client/trpc';
import { cn } from '@/components/ui/cn';

/**
 * Beside a button that sends mail: where the message goes on this installation (SMTP or not).
 * `kind`: access mail (links that let someone in) or a notice.
 */
export function MailDestination({ kind = 'access', className }: { kind?: 'access' | 'notification'; className?: string }) {
  const delivery = useMailDelivery();
  if (!delivery.data) return null;
  return (
    <p className={cn('flex gap-1.5 text-xs text-muted-foreground', className)} data-testid="mail-destination">
      <Mail className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      <span>{delivery.data[kind]}</span>
    </p>
  );
}

/**
 * Where this installation's mail goes (fetched once). A dialog that shows MailDestination calls
 * this where its trigger is, so the line is there when the dialog opens: arriving later, it
 * moved the dialog's buttons under a click (seen in CI: "Send invitation" clicked, nothing sent).
 */
export function useMailDelivery() {
  const trpc = useTRPC();
  return useQuery(trpc.auth.mailDelivery.queryOptions(undefined, { staleTime: Infinity }));
}
