'use client';
import * as React from 'react';
import { Info, Ban } from 'lucide-react';
import type { ConsoleOutputs } from '@/console-client/trpc';

export type Availability = ConsoleOutputs['playground']['availability'][number];

/** The availability of a kind (and, for edits, of its mode) in the server's list. */
export function availabilityOf(list: readonly Availability[] | undefined, type: string, editMode: string | undefined): Availability | null {
  return list?.find((a) => a.type === type && (type !== 'edit' || a.editMode === editMode)) ?? null;
}

/** The plural a sentence names: renders, prompt edits, mask edits, decorations, upscales. */
function plural(a: Availability): string {
  if (a.type === 'edit') return a.editMode === 'mask' ? 'mask edits' : 'prompt edits';
  return `${a.type}s`;
}

/** What a test-mode result of this kind is on this installation, or null when it is a real image. */
export function previewNote(a: Availability | null): string | null {
  if (!a || a.test !== 'preview') return null;
  const how =
    a.live === 'available'
      ? `Live ${plural(a)} are generated; ${a.testSetting ?? 'ENGINE_TEST_MODE=backend'} makes test mode generate them too.`
      : `They need a generative model: the operator connects one with ${a.setting ?? 'an ENGINE_ setting'}.`;
  return `Test mode returns a preview for ${plural(a)} on this installation: the input at the requested size with a colour grade, not a generated image. ${how}`;
}

/**
 * Before Run: a live kind this installation cannot serve (Run is disabled: it would answer 503
 * mode_unavailable) and the setting that enables it, or a test-mode preview.
 */
export function AvailabilityNote({ option, mode }: { option: Availability | null; mode: 'test' | 'live' }) {
  if (!option) return null;
  if (mode === 'live' && option.live === 'unavailable') {
    return (
      <div role="status" data-testid="availability" className="flex gap-2 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm">
        <Ban className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
        <p>
          <strong>Live {plural(option)} are not available on this installation</strong>: no generative model is configured for them, so a request is refused with 503{' '}
          <code>mode_unavailable</code> (nothing charged). The operator enables them with <code>{option.setting}</code> (see the engine documentation). Test mode gives a free preview.
        </p>
      </div>
    );
  }
  const note = mode === 'test' ? previewNote(option) : null;
  if (!note) return null;
  return (
    <div role="status" data-testid="availability" className="flex gap-2 rounded-md border bg-muted p-3 text-sm">
      <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
      <p>{note}</p>
    </div>
  );
}

/** Every kind at a glance: what test mode gives and whether live mode is available here. */
export function AvailabilityTable({ list }: { list: readonly Availability[] | undefined }) {
  if (!list) return null;
  return (
    <details className="text-sm" data-testid="availability-table">
      <summary className="cursor-pointer font-medium">What runs on this installation</summary>
      <div className="relative mt-2 overflow-x-auto">
        <table className="w-full text-left text-xs">
          <caption className="sr-only">Creation kinds: test mode and live mode on this installation</caption>
          <thead className="text-muted-foreground">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">Kind</th>
              <th scope="col" className="py-1 pr-3 font-medium">Test mode</th>
              <th scope="col" className="py-1 font-medium">Live mode</th>
            </tr>
          </thead>
          <tbody>
            {list.map((a) => (
              <tr key={`${a.type}-${a.editMode ?? ''}`} className="border-t">
                <th scope="row" className="py-1 pr-3 font-normal capitalize">
                  {plural(a)}
                </th>
                <td className="py-1 pr-3">{a.test === 'real' ? 'real image' : 'preview'}</td>
                <td className="py-1">{a.live === 'available' ? 'available' : <>unavailable ({a.setting})</>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
