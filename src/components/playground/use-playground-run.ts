'use client';
import * as React from 'react';
import { flushSync } from 'react-dom';
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
 * Starts downloading and decoding a generation's first output image now, so the result's <img>
 * (rendered next, same URL) paints from the page's image cache. Resolves once it is decoded, at
 * once without an output (or when it fails: the <img> shows its own state).
 */
export function preloadOutput(generation: Generation): Promise<void> {
  const url = generation.output[0]?.url;
  if (!url) return Promise.resolve();
  const image = new Image();
  image.decoding = 'async';
  image.src = url;
  return image.decode().catch(() => undefined);
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
        if (generation.status !== 'in_progress') void preloadOutput(generation);
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
 * (and again once a run's result is on screen, since a generation consumes its upload), so Run
 * only creates, one round trip as a /v1 call is, sent before the page re-renders; the answer's
 * output image is fetched as the answer arrives; then a longer run is followed. Refusals land in
 * `errors` by `param`.
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

  /** The chosen file's upload, started at choice; `ready` once it is done, so Run can send at once. */
  const preparedFile = React.useRef<{ file: File; id: Promise<string>; ready?: string } | null>(null);
  const prepareUpload = React.useCallback(
    (file: File | null) => {
      if (!file) {
        preparedFile.current = null;
        return;
      }
      const prepared: { file: File; id: Promise<string>; ready?: string } = { file, id: upload(file, 'image') };
      prepared.id.then((id) => (prepared.ready = id)).catch(() => undefined); // a refusal is awaited (and shown) at Run
      preparedFile.current = prepared;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- upload reads the current scope
    [scopeInput],
  );
  function takeUpload(file: File): string | Promise<string> {
    const prepared = preparedFile.current;
    preparedFile.current = null;
    if (prepared && prepared.file === file) return prepared.ready ?? prepared.id;
    return upload(file, 'image');
  }
  /** The signature being sent, read synchronously: a second click before the re-render sends nothing. */
  const inFlight = React.useRef<string | null>(null);

  async function run({ kind, body, image, layers, signature }: RunInputs): Promise<void> {
    if (!image || inFlight.current === signature) return;
    inFlight.current = signature;
    // The page's "sending" state renders after the request has left (a transition, not the click's own render).
    React.startTransition(() => setSending(signature));
    try {
      const resolved = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
      let imageUpload: { file: File; id: string } | null = null;
      if (isFileRef(resolved.image) && image.source.type === 'file') {
        const file = image.source.file;
        const taken = takeUpload(file);
        // Uploaded at choice (the usual case): no wait before the creation is sent.
        const id =
          typeof taken === 'string'
            ? taken
            : await taken.catch((error: unknown) => {
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
          else if (imageUpload) preparedFile.current = { file: imageUpload.file, id: Promise.resolve(imageUpload.id), ready: imageUpload.id };
          throw error;
        });
      // The output's download starts with the answer, beside the render that shows it.
      const painted = preloadOutput(result.generation);
      const record: RunRecord = { id: result.generation.id, kind, requestId: result.requestId, beforeUrl: image.previewUrl, signature };
      // One render for the result: the draft and the history are external stores (their updates
      // render synchronously on their own), the rest is state; rendered together, at once.
      flushSync(() => {
        updateDraft((d) => ({ runs: { ...d.runs, [kind]: record } }));
        onAccepted(record, result.generation);
        setErrors({});
        addHistoryEntry(scopeKey, { id: result.generation.id, kind, createdAt: Date.now(), input: null, status: result.generation.status, costAmount: result.generation.cost.amount, livemode: result.generation.livemode });
        inFlight.current = null;
        setSending(null);
      });
      // The quota line reads the answer of the creation itself: one source for the numbers shown.
      queryClient.setQueriesData<{ quota: unknown }>({ queryKey: trpc.playground.quote.pathKey() }, (old) => (old ? { ...old, quota: result.quota } : old));
      // What the result does not need waits until it is on screen: the next run's upload (this
      // one is the generation's now), the history's thumbnail, the other screens' data.
      void Promise.race([painted, new Promise((resolve) => setTimeout(resolve, 2_000))]).then(() => {
        if (imageUpload && !preparedFile.current) prepareUpload(imageUpload.file);
        void queryClient.invalidateQueries({ queryKey: trpc.generations.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.overview.pathKey() });
        void keptInput(image.source.type === 'file' ? { type: 'file', file: image.source.file } : image.source).then((input) => updateHistoryEntry(scopeKey, result.generation.id, { input }));
      });
    } catch (error) {
      const problem = problemOf(error);
      if (problem) {
        const { param, ...rest } = problem;
        setErrors({ [param ?? 'request']: rest });
        if (problem.code === 'generation_rate_limit_exceeded') void queryClient.invalidateQueries({ queryKey: trpc.playground.quote.pathKey() });
      }
    } finally {
      inFlight.current = null;
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
