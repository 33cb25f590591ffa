'use client';
import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ShieldCheck } from 'lucide-react';
import { secondFactorInput, totpCodeInput } from '@/shared/console/console-inputs';
import { apiErrorOf, useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { dateTime } from '@/console-client/format';
import { downloadText } from '@/console-client/download';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { FormError, TextField } from '@/components/ui/form';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { toast } from '@/components/ui/toaster';

type Enrolment = ConsoleOutputs['twoFactor']['begin'];

/**
 * Two-factor sign-in of the user's account: set up an authenticator app (QR code or key, then a
 * code), the recovery codes shown once, new recovery codes, turning it off. Each change signs
 * out the user's other sessions.
 */
export function TwoFactorSection({ required = false }: { required?: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.twoFactor.status.queryOptions());
  const [enrolment, setEnrolment] = React.useState<Enrolment | null>(null);
  const [codes, setCodes] = React.useState<string[] | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.twoFactor.status.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.sessions.list.queryKey() });
  };
  // The console's shell reads me.get to send members to enrol: refreshed once the codes are saved, so they stay on screen until then.
  const refreshShell = () => void queryClient.invalidateQueries({ queryKey: trpc.me.get.queryKey() });
  const begin = useMutation(trpc.twoFactor.begin.mutationOptions({ onSuccess: (data) => setEnrolment(data) }));

  return (
    <Card aria-labelledby="two-factor-heading">
      <CardHeader>
        <h2 id="two-factor-heading" className="flex items-center gap-2 font-semibold">
          <ShieldCheck className="size-4" aria-hidden /> Two-factor sign-in
          {status.data ? <Badge variant={status.data.enabled ? 'success' : 'secondary'}>{status.data.enabled ? 'On' : 'Off'}</Badge> : null}
        </h2>
        <p className="text-sm text-muted-foreground">
          {required ? 'An organization you belong to requires it. ' : ''}After your password or e-mail link, the console asks for a code from an authenticator app (or a recovery code).
        </p>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {status.isPending ? (
          <LoadingRows rows={2} label="Loading two-factor sign-in" />
        ) : status.isError ? (
          <ErrorState error={status.error} onRetry={() => void status.refetch()} />
        ) : codes ? (
          <RecoveryCodes
            codes={codes}
            onDone={() => {
              setCodes(null);
              refreshShell();
            }}
          />
        ) : status.data.enabled ? (
          <Enabled
            status={status.data}
            onCodes={(c) => {
              setCodes(c);
              refresh();
            }}
            onDisabled={() => {
              refresh();
              refreshShell();
            }}
          />
        ) : enrolment ? (
          <ConfirmEnrolment
            enrolment={enrolment}
            onCancel={() => setEnrolment(null)}
            onConfirmed={(c) => {
              setEnrolment(null);
              setCodes(c);
              refresh();
            }}
          />
        ) : (
          <div className="flex flex-col gap-2">
            <FormError message={begin.error?.message} />
            <Button className="self-start" onClick={() => begin.mutate()} disabled={begin.isPending}>
              Set up an authenticator app
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function ConfirmEnrolment({ enrolment, onCancel, onConfirmed }: { enrolment: Enrolment; onCancel: () => void; onConfirmed: (codes: string[]) => void }) {
  const trpc = useTRPC();
  const form = useForm({ resolver: zodResolver(totpCodeInput), defaultValues: { code: '' } });
  const confirm = useMutation(
    trpc.twoFactor.confirm.mutationOptions({
      onSuccess: (data) => {
        toast.success('Two-factor sign-in is on. Your other sessions were signed out.');
        onConfirmed(data.recovery_codes);
      },
      onError: (error) => {
        if (apiErrorOf(error)?.param === 'code') form.setError('code', { message: error.message });
      },
    }),
  );
  const qrSrc = `data:image/svg+xml;base64,${btoa(enrolment.qr_svg)}`;
  return (
    <div className="flex flex-col gap-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm">
        <li>Scan this QR code with your authenticator app, or type the key below.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL drawn by the server, nothing to optimise */}
      <img src={qrSrc} alt="QR code for your authenticator app (the key is also written below)" width={200} height={200} className="rounded-md border bg-white p-1" data-testid="totp-qr" />
      <div className="text-sm">
        <p className="text-muted-foreground">Key (shown once, while you set up):</p>
        <code className="font-mono break-all" data-testid="totp-secret">
          {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
        </code>
      </div>
      <form onSubmit={form.handleSubmit((values) => confirm.mutate(values))} className="flex max-w-xs flex-col gap-3" noValidate>
        <FormError message={confirm.error && apiErrorOf(confirm.error)?.param !== 'code' ? confirm.error.message : null} />
        <TextField control={form.control} name="code" label="Code from the app" inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        <div className="flex gap-2">
          <Button type="submit" disabled={confirm.isPending}>
            Turn on
          </Button>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}

function Enabled({ status, onCodes, onDisabled }: { status: ConsoleOutputs['twoFactor']['status']; onCodes: (codes: string[]) => void; onDisabled: () => void }) {
  const trpc = useTRPC();
  const [action, setAction] = React.useState<'none' | 'codes' | 'disable'>('none');
  const codesForm = useForm({ resolver: zodResolver(totpCodeInput), defaultValues: { code: '' } });
  const disableForm = useForm({ resolver: zodResolver(secondFactorInput), defaultValues: { code: '' } });
  const regenerate = useMutation(
    trpc.twoFactor.regenerateRecoveryCodes.mutationOptions({
      onSuccess: (data) => onCodes(data.recovery_codes),
      onError: (error) => codesForm.setError('code', { message: error.message }),
    }),
  );
  const disable = useMutation(
    trpc.twoFactor.disable.mutationOptions({
      onSuccess: () => {
        toast.success('Two-factor sign-in is off. Your other sessions were signed out.');
        onDisabled();
      },
      onError: (error) => disableForm.setError('code', { message: error.message }),
    }),
  );
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        On since {dateTime(status.enabled_at)}. Recovery codes left: <strong data-testid="recovery-codes-left">{status.recovery_codes_left}</strong>.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => setAction(action === 'codes' ? 'none' : 'codes')} aria-expanded={action === 'codes'}>
          New recovery codes
        </Button>
        <Button variant="outline" onClick={() => setAction(action === 'disable' ? 'none' : 'disable')} aria-expanded={action === 'disable'}>
          Turn off
        </Button>
      </div>
      {action === 'codes' ? (
        <form onSubmit={codesForm.handleSubmit((values) => regenerate.mutate(values))} className="flex max-w-xs flex-col gap-3" noValidate>
          <TextField control={codesForm.control} name="code" label="Code from the app" description="The old recovery codes stop working." inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
          <Button type="submit" className="self-start" disabled={regenerate.isPending}>
            Make new recovery codes
          </Button>
        </form>
      ) : null}
      {action === 'disable' ? (
        <form onSubmit={disableForm.handleSubmit((values) => disable.mutate(values))} className="flex max-w-xs flex-col gap-3" noValidate>
          <TextField control={disableForm.control} name="code" label="Code from the app or a recovery code" autoComplete="one-time-code" />
          <Button type="submit" variant="destructive" className="self-start" disabled={disable.isPending}>
            Turn off two-factor sign-in
          </Button>
        </form>
      ) : null}
    </div>
  );
}

/** The recovery codes, shown once: copy or download them before leaving. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;
  return (
    // One block the width of the codes, their actions right under them (a full-width grid set two columns half a screen apart).
    <div className="flex max-w-md flex-col gap-3" data-testid="recovery-codes-block">
      <p role="alert" className="rounded-md bg-warning p-3 text-sm text-warning-foreground">
        Keep these recovery codes somewhere safe: each signs you in once if you lose your authenticator. They are shown only now.
      </p>
      <ul className="grid w-fit grid-cols-2 gap-x-8 gap-y-1 rounded-md border bg-muted/40 px-4 py-3 font-mono text-sm" aria-label="Recovery codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() => void navigator.clipboard?.writeText(text).then(() => toast.success('Copied'), () => toast.error('Could not copy; select the codes and copy them.'))}
        >
          Copy
        </Button>
        <Button variant="outline" onClick={() => downloadText('roomtone-recovery-codes.txt', text, 'text/plain')}>
          Download
        </Button>
        <Button onClick={onDone}>I saved them</Button>
      </div>
    </div>
  );
}
