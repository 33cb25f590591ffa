'use client';
import * as React from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { formFromGeneration } from './playground-request';

/**
 * Replay from the log (`?replay=gen_…`): the generation's settings fill the form once; images are
 * never kept, so the note asks for them again. Returns that note. Only a request that created a
 * generation is offered for replay: one that created nothing (refused, a 415) has nothing to replay.
 */
export function useReplay(replayId: string | null, apply: (replayed: ReturnType<typeof formFromGeneration>) => void): string | null {
  const trpc = useTRPC();
  const scopeInput = useScopeInput();
  const replayGeneration = useQuery(trpc.generations.get.queryOptions({ ...scopeInput, id: replayId ?? 'gen_0' }, { enabled: replayId !== null && /^gen_/.test(replayId) }));
  const replay = React.useMemo(() => {
    const g = replayGeneration.data;
    return g ? { id: g.id, label: `${g.id} (request ${g.request_id ?? 'unknown'})`, settings: { type: g.type, input: g.input as Record<string, unknown>, metadata: g.metadata as Record<string, string> } } : null;
  }, [replayGeneration.data]);
  const replayed = React.useMemo(() => (replay ? formFromGeneration(replay.settings) : null), [replay]);
  const applied = React.useRef<string | null>(null);
  const latestApply = React.useRef(apply);
  React.useEffect(() => {
    latestApply.current = apply;
  });
  React.useEffect(() => {
    if (!replay || !replayed || applied.current === replay.id) return;
    applied.current = replay.id;
    latestApply.current(replayed);
  }, [replay, replayed]);
  return replay && replayed
    ? `Settings of ${replay.label}. Received images are never kept: choose the image${replayed.form.kind === 'edit' && replayed.form.mode === 'mask' ? ' and paint the mask' : ''} again.`
    : null;
}
