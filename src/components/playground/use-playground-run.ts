'use client';
import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTRPC, useTRPCClient, type ConsoleOutputs } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { problemOf, UploadRefused, type FieldErrors } from '@/console-client/problems';
import { FOLLOW_WAIT_MS, useWaitingRead } from '@/components/generations/waiting-read';
import type { CreationKind } from '@/shared/playground/playground-inputs';
import { isFileRef } from '@/shared/playground/copy-as-code';
import type { LayerDraft } from './layers-editor';
import type { MaskPainterHandle } from './mask-painter';
import { addHistoryEntry, keptInput, updateHistoryEntry } from './run-history';
import type { ChosenImage, DraftUpdate, RunRecord } from './use-playground-draft';

export type Generation = ConsoleOutputs['generations']['get'];

/** The upload intake's refusal body (the spec's envelope) as a Problem, with the request id header. */
async function uploadRefusal(res: Response): Promise<UploadRefused> {
  const payload = (await res.json().catch(() => null)) as { error?: { code: string; message: string; param?: string } } | null;
  const requestId = res.headers.get('request-id') ?? res.headers.get('x-request-id') ?? undefined;
  const error = payload?.error ?? { code: 'request_failed', message: `The upload was refused (HTTP ${res.status}).` };
  return new UploadRefused({ code: error.code, message: error.message, ...(requestId ? { requestId } : {}) }, 'image');
}

/**
 * The generation a result shows, by id: read at once when the page only has the id (a reload,
 * a run opened from the history), then, while it runs, reads that each answer as soon as it ends
 * or after FOLLOW_WAIT_MS with its progress, the next starting at once. No polling delay stands
 * between the end and the screen.
 */
export function useFollowedGeneration(id: string | null, known: Generation | null): { generation: Generation | null; missing: boolean } {
  const client = useTRPCClient();
  const scopeInput = useScopeInput();
  const [followed, setFollowed] = React.useState<{ generation: Generation; reads: number } | null>(null);
  const [missing, setMissing] = React.useState<string | null>(null);
  const fromKnown = known && known.id === id ? { generation: known, reads: 0 } : null;
  // The newer of what the creation answered and what was read since.
  const shown = followed && followed.generation.id === id && (!fromKnown || followed.generation.status !== 'in_progress' || fromKnown.generation.status === 'in_progress') ? followed : fromKnown;
  const needsRead = id !== null && missing !== id && (!shown || shown.generation.status === 'in_progress');
  useWaitingRead(
    needsRead,
    `${id} ${shown?.reads ?? -1}`,
    async (signal) => {
      if (!id) return;
      try {
        const generation = await client.playground.follow.query({ ...scopeInput, id, waitMs: shown ? FOLLOW_WAIT_MS : 0 }, { signal });
        if (!signal.aborted) setFollowed({ generation, reads: (shown?.reads ?? 0) + 1 });
      } catch (error) {
        if (!signal.aborted && problemOf(error)?.code === 'resource_not_found') setMissing(id);
        throw error;
      }
    },
    async () => setFollowed((f) => (f ? { ...f, reads: f.reads + 1 } : f)),
  );
  return { generation: shown?.generation ?? null, missing: missing === id };
}

export interface RunInputs {
  kind: CreationKind;
  body: Record<string, unknown>;
  image: ChosenImage | null;
  layers: LayerDraft[];
  /** Same kind, body, image and mask: a second Run of it waits for the first. */
  signature: string;
}

/**
 * Running a creation from the playground: the chosen file is uploaded as soon as it is chosen
 * (and again after each run, since a generation consumes its upload), so Run only creates, one
 * round trip as a /v1 call is; then the generation is followed. Refusals land in `errors` by
 * `param`.
 */
export function usePlaygroundRun({ scopeKey, painter, updateDraft, onAccepted }: { scopeKey: string; painter: React.RefObject<MaskPainterHandle | null>; updateDraft: (update: DraftUpdate) => void; onAccepted: (record: RunRecord, generation: Generation) => void }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const scopeInput = useScopeInput();
  const queryClient = useQueryClient();
  const [errors, setErrors] = React.useState<FieldErrors>({});
  /** The signature being sent (until accepted or refused). */
  const [sending, setSending] = React.useState<string | null>(null);

  async function upload(blob: Blob, param: string): Promise<string> {
    const created = await client.playground.createUpload.mutate(scopeInput);
    const res = await fetch(created.upload_url, { method: 'PUT', body: blob });
    if (!res.ok) {
      const refusal = await uploadRefusal(res);
      throw new UploadRefused(refusal.problem, param);
    }
    return created.id;
  }

  const preparedFile = React.useRef<{ file: File; id: Promise<string> } | null>(null);
  const prepareUpload = React.useCallback(
    (file: File | null) => {
      if (!file) {
        preparedFile.current = null;
        return;
      }
      const id = upload(file, 'image');
      id.catch(() => undefined); // awaited (and its refusal shown) at Run
      preparedFile.current = { file, id };
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- upload reads the current scope
    [scopeInput],
  );
  function takeUpload(file: File): Promise<string> {
    const prepared = preparedFile.current;
    preparedFile.current = null;
    return prepared && prepared.file === file ? prepared.id : upload(file, 'image');
  }

  async function run({ kind, body, image, layers, signature }: RunInputs): Promise<void> {
    if (!image) return;
    setSending(signature);
    try {
      const resolved = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
      let imageUpload: { file: File; id: string } | null = null;
      if (isFileRef(resolved.image) && image.source.type === 'file') {
        const file = image.source.file;
        const id = await takeUpload(file).catch((error: unknown) => {
          prepareUpload(file); // a fresh one for the next try
          throw error;
        });
        imageUpload = { file, id };
        resolved.image = id;
      }
      if (isFileRef(resolved.mask) && painter.current) resolved.mask = await upload(await painter.current.exportPng(), 'mask');
      if (Array.isArray(resolved.layers)) {
        resolved.layers = await Promise.all(
          (resolved.layers as Record<string, unknown>[]).map(async (l, i) => {
            const file = layers[i]?.elementFile;
            return isFileRef(l.element) && file ? { ...l, element: await upload(file, `layers[${i}].element`) } : l;
          }),
        );
      }
      const result = await client.playground.create
        .mutate({ ...scopeInput, kind, body: resolved, idempotencyKey: `playground-${crypto.randomUUID()}`, waitMs: FOLLOW_WAIT_MS })
        .catch((error: unknown) => {
          // A refused request leaves its upload available (spec): the next try uses it again,
          // unless the refusal is about that upload (expired or used): then a fresh one.
          if (imageUpload && problemOf(error)?.param === 'image') prepareUpload(imageUpload.file);
          else if (imageUpload) preparedFile.current = { file: imageUpload.file, id: Promise.resolve(imageUpload.id) };
          throw error;
        });
      if (imageUpload) prepareUpload(imageUpload.file); // this one is the generation's now
      const record: RunRecord = { id: result.generation.id, kind, requestId: result.requestId, beforeUrl: image.previewUrl, signature };
      updateDraft((d) => ({ runs: { ...d.runs, [kind]: record } }));
      onAccepted(record, result.generation);
      setErrors({});
      // The quota line reads the answer of the creation itself: one source for the numbers shown.
      queryClient.setQueriesData<{ quota: unknown }>({ queryKey: trpc.playground.quote.pathKey() }, (old) => (old ? { ...old, quota: result.quota } : old));
      void queryClient.invalidateQueries({ queryKey: trpc.generations.pathKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.overview.pathKey() });
      addHistoryEntry(scopeKey, { id: result.generation.id, kind, createdAt: Date.now(), input: null, status: result.generation.status, costAmount: result.generation.cost.amount, livemode: result.generation.livemode });
      void keptInput(image.source.type === 'file' ? { type: 'file', file: image.source.file } : image.source).then((input) => updateHistoryEntry(scopeKey, result.generation.id, { input }));
    } catch (error) {
      const problem = problemOf(error);
      if (problem) {
        const { param, ...rest } = problem;
        setErrors({ [param ?? 'request']: rest });
        if (problem.code === 'generation_rate_limit_exceeded') void queryClient.invalidateQueries({ queryKey: trpc.playground.quote.pathKey() });
      }
    } finally {
      setSending(null);
    }
  }

  return { errors, setErrors, sending, run, prepareUpload };
}

/** Keeps the history's status and cost in step with a followed generation. */
export function useHistoryFollows(scopeKey: string, generation: Generation | null): void {
  const status = generation?.status;
  const amount = generation?.cost.amount ?? null;
  const id = generation?.id;
  React.useEffect(() => {
    if (id && status) updateHistoryEntry(scopeKey, id, { status, costAmount: amount });
  }, [scopeKey, id, status, amount]);
}
