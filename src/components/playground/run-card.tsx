'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { Loader2, Play } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import type { ConsoleOutputs } from '@/console-client/trpc';
import type { ConsoleScope } from '@/console-client/scope';
import type { FieldErrors } from '@/console-client/problems';
import { money } from '@/console-client/format';
import { AvailabilityNote, AvailabilityTable, type Availability } from './availability';
import { FieldError } from './field-error';

type Quote = ConsoleOutputs['playground']['quote'];

export interface RunWait {
  reason: 'image' | 'blocked' | 'in-flight';
  text: string;
}

/** Params shown under their own field elsewhere on the screen; any other refusal shows here. */
const FIELD_PARAMS = ['image', 'mask', 'prompt', 'quality', 'scale', 'style', 'categories', 'metadata', 'mode', 'request', 'layers'];

/**
 * Before Run: the price, the quota left (from the last answer), what this installation cannot
 * run, a live balance too low for the price; then Run, disabled until the input is valid and
 * while the same request is in flight, with the reason said beside it.
 */
export function RunCard({
  scope,
  kindLabel,
  quote,
  balanceCents,
  option,
  availability,
  waitingFor,
  running,
  disabled,
  errors,
}: {
  scope: ConsoleScope;
  kindLabel: string;
  quote: Quote | undefined;
  balanceCents: number | undefined;
  option: Availability | null;
  availability: readonly Availability[] | undefined;
  /** Why Run waits (no valid image, colours and layers not paired, the same run in flight), as a sentence. */
  waitingFor: RunWait | null;
  running: boolean;
  disabled: boolean;
  errors: FieldErrors;
}) {
  const q = quote;
  const lowBalance = scope.mode === 'live' && q && balanceCents !== undefined && balanceCents < q.amount;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Run</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div data-testid="price" className="text-sm">
          {q ? (
            <>
              <p>
                Price: <strong>{money(q.amount)}</strong>
                {q.discountPercent > 0 ? ` (list ${money(q.listAmount)}, ${q.discountPercent} % tier discount)` : ''}
                {q.charged ? ', charged to the balance at acceptance' : ''}
              </p>
              {!q.charged ? <p className="font-medium">No charge in test mode (cost.amount shows the live price).</p> : null}
              <p className="text-muted-foreground" data-testid="quota">
                Generations left: {q.quota.minute.remaining} of {q.quota.minute.limit} this minute, {q.quota.hour.remaining} of {q.quota.hour.limit} this hour ({scope.mode} mode).
              </p>
            </>
          ) : (
            <p className="text-muted-foreground">Pricing…</p>
          )}
        </div>
        {lowBalance ? (
          <p className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm" data-testid="low-balance">
            The live balance is {money(balanceCents ?? 0)}, less than this run&apos;s price: a live run would be refused.{' '}
            {scope.role === 'developer' ? (
              'An owner or admin can add credit on the Billing screen.'
            ) : (
              <Link href={`${scope.base}/billing`} className="font-medium underline underline-offset-2">
                Add credit on Billing
              </Link>
            )}
          </p>
        ) : null}
        <AvailabilityNote option={option} mode={scope.mode} />
        {waitingFor?.reason === 'blocked' ? (
          <p role="alert" className="text-sm font-medium text-destructive" data-testid="blocked">
            {waitingFor.text}
          </p>
        ) : waitingFor ? (
          <p className="text-sm text-muted-foreground" data-testid="run-waits">
            {waitingFor.text}
          </p>
        ) : null}
        <Button type="submit" disabled={disabled} data-testid="run">
          {running ? <Loader2 className="animate-spin" aria-hidden /> : <Play aria-hidden />} Run {kindLabel.toLowerCase()}
        </Button>
        <FieldError errors={errors} param="request" />
        {Object.keys(errors)
          .filter((param) => !FIELD_PARAMS.includes(param) && !param.startsWith('layers['))
          .map((param) => (
            <FieldError key={param} errors={errors} param={param} />
          ))}
        <AvailabilityTable list={availability} />
      </CardContent>
    </Card>
  );
}
