'use client';
import * as React from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { formFromGeneration } from './playground-request';
import { settingsFromLoggedRequest } from './replay-request';

/**
 * Replay from the log (`?replay=gen_…` or `req_…`): the generation's settings, or a logged
 * request's parameters (a refused one too), fill the form once; images are never kept, so the
 * note asks for them again. Returns that note.
 */
export function useReplay(replayId: string | null, apply: (replayed: ReturnType<typeof formFromGeneration>) => void): string | null {
  const trpc = useTRPC();
  const scopeInput = useScopeInput();
  const replayGeneration = useQuery(trpc.generations.get.queryOptions({ ...scopeInput, id: replayId ?? 'gen_0' }, { enabled: replayId !== null && /^gen_/.test(replayId) }));
  const replayRequest = useQuery(trpc.logs.get.queryOptions({ ...scopeInput, id: replayId ?? 'req_0' }, { enabled: replayId !== null && /^req_/.test(replayId) }));
  const replay = React.useMemo(() => {
    if (replayGeneration.data) {
      const g = replayGeneration.data;
      return { id: g.id, label: `${g.id} (request ${g.request_id ?? 'unknown'})`, settings: { type: g.type, input: g.input as Record<string, unknown>, metadata: g.metadata as Record<string, string> } };
    }
    const settings = replayRequest.data ? settingsFromLoggedRequest(replayRequest.data) : null;
    return settings && replayRequest.data ? { id: replayRequest.data.id, label: `request ${replayRequest.data.id} (HTTP ${replayRequest.data.status})`, settings } : null;
  }, [replayGeneration.data, replayRequest.data]);
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
