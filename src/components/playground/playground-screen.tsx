'use client';
import * as React from 'react';
import { useSearchParams } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CREATION_KINDS, CREATION_ROUTES, type CreationKind } from '@/shared/playground/playground-inputs';
import { useTRPC } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { PageHeader } from '@/components/ui/page-header';
import { SegmentedRadioGroup } from '@/components/ui/radio-group';
import { useHydrated } from '@/components/ui/use-hydrated';
import { availabilityOf, previewNote } from './availability';
import { CodePanel } from './code-panel';
import { EditCard } from './edit-card';
import { checkImageFile } from './image-check';
import { ImageCard, urlProblem, useImageSize, type RefusedChoice } from './image-card';
import { layerProblems } from './layers-editor';
import { MaskHistory, MaskRaster, maskSizeFor } from './mask-raster';
import type { MaskPainterHandle, PaintedColor } from './mask-painter';
import { checkBody, DEFAULT_FORM, MASK_FILE_NAME, playgroundForm, requestBody, type ImageSource, type PlaygroundForm } from './playground-request';
import { ResultPanel } from './result-panel';
import { useRunHistory } from './run-history';
import { RunHistoryPanel } from './run-history-panel';
import { RunCard, type RunWait } from './run-card';
import { SettingsCard } from './settings-card';
import { formFromSearch, searchOfForm } from './url-settings';
import { hasPaintedMask, usePlaygroundDraft, type ChosenImage } from './use-playground-draft';
import { useFollowedGeneration, useHistoryFollows, usePlaygroundRun, type Generation } from './use-playground-run';
import { useReplay } from './use-replay';

const KIND_LABELS: Record<CreationKind, string> = { render: 'Render', edit: 'Edit', decoration: 'Decoration', upscale: 'Upscale' };
const KIND_HELP: Record<CreationKind, string> = {
  render: 'A photorealistic render of a draft image (sketch, 3D view).',
  edit: 'Change an image by a written instruction, or by painting areas and saying what happens to each.',
  decoration: 'Decorate a furnished room with accessories in a style.',
  upscale: 'Upscale x2 or x4 without changing the content.',
};

/**
 * The playground: the kind and its settings live in the URL, the image, mask and layers in the
 * page's draft (kept while the member visits other screens), the shown generation in the URL
 * (`gen`: a reload during a run picks it up again). Each result shows its own input.
 */
export function PlaygroundScreen() {
  const trpc = useTRPC();
  const scope = useScope();
  const scopeInput = useScopeInput();
  const searchParams = useSearchParams();
  const scopeKey = `${scope.organizationId}.${scope.mode}`;
  const [draft, updateDraft] = usePlaygroundDraft(scopeKey);

  const form = useForm<PlaygroundForm>({ resolver: zodResolver(playgroundForm), defaultValues: formFromSearch(searchParams, draft.form ?? DEFAULT_FORM) });
  const values = useWatch({ control: form.control }) as PlaygroundForm;
  const kind = values.kind;

  // The URL's generation (a reload, a link), else the last run of the kind (Back from another screen).
  const [shownId, setShownId] = React.useState<string | null>(() => searchParams.get('gen') ?? draft.runs[form.getValues('kind')]?.id ?? null);

  const [accepted, setAccepted] = React.useState<Generation | null>(null);
  const [refused, setRefused] = React.useState<RefusedChoice | null>(null);
  const [checking, setChecking] = React.useState(false);
  const [pendingChoice, setPendingChoice] = React.useState<(() => void) | null>(null);
  const painter = React.useRef<MaskPainterHandle>(null);
  const hydrated = useHydrated();
  // The copied code's Idempotency-Key: random, so after hydration (server HTML and first render agree); a new one after each run.
  const [codeKey, setCodeKey] = React.useState<string | null>(null);
  React.useEffect(() => {
    if (hydrated) setCodeKey((key) => key ?? crypto.randomUUID()); // eslint-disable-line react-hooks/set-state-in-effect -- a client-only value, once
  }, [hydrated]);

  // The form into the draft and the URL (replaceState: Back leaves the screen, not each setting).
  React.useEffect(() => {
    updateDraft({ form: values });
    const search = searchOfForm(values, shownId, new URLSearchParams(window.location.search));
    if (search.toString() !== window.location.search.slice(1)) window.history.replaceState(window.history.state, '', `?${search.toString()}`);
  }, [values, shownId, updateDraft]);

  const { image, layers, maskInPrompt } = draft;
  const imageSize = useImageSize(image?.previewUrl ?? null);
  const withMask = kind === 'edit' && (values.mode === 'mask' || maskInPrompt);

  // The mask belongs to its image: kept in the draft, made when the image's size is known.
  const mask = draft.mask && image && draft.mask.imageUrl === image.previewUrl ? draft.mask : null;
  React.useEffect(() => {
    if (!withMask || !image || !imageSize || mask) return;
    const size = maskSizeFor(imageSize.width, imageSize.height);
    updateDraft({ mask: { imageUrl: image.previewUrl, raster: new MaskRaster(size.width, size.height), history: new MaskHistory() } });
  }, [withMask, image, imageSize, mask, updateDraft]);
  const [painted, setPainted] = React.useState<PaintedColor[]>(() => (mask ? mask.raster.paintedColors() : []));

  const setLayers = React.useCallback((next: typeof layers) => updateDraft({ layers: next }), [updateDraft]);
  const replayNote = useReplay(searchParams.get('replay'), (replayed) => {
    form.reset(replayed.form);
    setLayers(replayed.layers);
  });

  const styles = useQuery(trpc.playground.styles.queryOptions(scopeInput, { enabled: kind === 'render' || kind === 'decoration' }));
  const availability = useQuery(trpc.playground.availability.queryOptions(scopeInput, { staleTime: 5 * 60_000 }));
  const quote = useQuery(trpc.playground.quote.queryOptions({ ...scopeInput, kind, quality: values.quality, scale: values.scale }));
  const overview = useQuery(trpc.overview.get.queryOptions(scopeInput, { enabled: scope.mode === 'live' }));
  const history = useRunHistory(scopeKey);

  const body = requestBody(values, { image: image?.source ?? null, withMask, layers });
  const problems = layerProblems(painted, layers);
  const blocked = kind === 'edit' && values.mode === 'mask' && (problems.unlayered.length > 0 || problems.unpainted.length > 0);
  const option = availabilityOf(availability.data, kind, values.mode);
  const unavailable = scope.mode === 'live' && option?.live === 'unavailable';
  // The Run card says what test mode gives for the chosen kind; the result repeats it only for another kind.
  const runPreview = scope.mode === 'test' ? previewNote(option) : null;
  const signature = JSON.stringify([kind, body, image?.previewUrl ?? null, withMask ? painted : null]);

  const { errors, setErrors, sending, run, prepareUpload } = usePlaygroundRun({
    scopeKey,
    painter,
    updateDraft,
    onAccepted: (record, generation) => {
      setAccepted(generation);
      setShownId(record.id);
      setCodeKey(crypto.randomUUID());
    },
  });

  const followed = useFollowedGeneration(shownId, accepted);
  const generation = followed.generation;
  const resultPreview = generation && !generation.livemode ? previewNote(availabilityOf(availability.data, generation.type, (generation.input as { mode?: string }).mode)) : null;
  useHistoryFollows(scopeKey, generation);
  const kindRun = draft.runs[kind];
  const shownRecord = kindRun && kindRun.id === shownId ? kindRun : null;
  const shownEntry = history.find((h) => h.id === shownId) ?? null;
  const beforeUrl = shownRecord?.beforeUrl ?? shownEntry?.input ?? null;

  const sameInFlight = sending === signature || (shownRecord?.signature === signature && generation?.id === shownRecord.id && generation.status === 'in_progress');
  const waitingFor: RunWait | null = !image
    ? { reason: 'image', text: 'Choose a valid image to run.' }
    : blocked
      ? { reason: 'blocked', text: 'Every painted colour needs a layer, and every layer a painted colour, before sending.' }
      : sameInFlight
        ? { reason: 'in-flight', text: 'This run is in flight: change a setting or the image to start another.' }
        : null;
  const runDisabled = !image || blocked || unavailable || sameInFlight;

  /** A new image discards the painted mask: asked first when colours are painted. */
  function confirmDiscard(apply: () => void) {
    if (hasPaintedMask(draft)) setPendingChoice(() => apply);
    else apply();
  }
  function takeImage(source: ImageSource, previewUrl: string) {
    prepareUpload(source.type === 'file' ? source.file : null);
    const chosen: ChosenImage = { source, previewUrl };
    updateDraft({ image: chosen, mask: null });
    setPainted([]);
    setRefused(null);
    setErrors(({ image: _image, mask: _mask, ...rest }) => rest);
  }
  async function chooseFile(file: File) {
    setChecking(true);
    const check = await checkImageFile(file).finally(() => setChecking(false));
    if (!check.ok) {
      setRefused({ name: file.name, problem: check.problem });
      return;
    }
    confirmDiscard(() => takeImage({ type: 'file', file }, URL.createObjectURL(file)));
  }
  function chooseUrl(url: string) {
    const problem = urlProblem(url);
    if (problem) {
      setRefused({ name: 'The URL', problem });
      return;
    }
    confirmDiscard(() => takeImage({ type: 'url', url }, url));
  }

  function submit() {
    if (runDisabled || !image) return;
    const local = checkBody(kind, body);
    // Unchanged (no error before, none now): no render at the click, ahead of the request.
    setErrors((current) => (Object.keys(current).length === 0 && Object.keys(local).length === 0 ? current : local));
    if (Object.keys(local).length > 0) return;
    void run({ kind, body, image, layers, signature });
  }


  // A reload while a painted mask exists asks first (in-console navigation keeps it).
  const painting = hasPaintedMask(draft);
  React.useEffect(() => {
    if (!painting) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [painting]);

  return (
    <div className="grid gap-6">
      <PageHeader title="Playground" description="Try every creation of the API on your own images, see the price first, and copy the exact API call." />
      {replayNote ? (
        <p role="status" className="rounded-md border bg-muted px-3 py-2 text-sm" data-testid="replay-note">
          {replayNote}
        </p>
      ) : null}
      <form
        className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <Controller
            control={form.control}
            name="kind"
            render={({ field }) => (
              <div>
                <SegmentedRadioGroup
                  label="Kind of creation"
                  value={field.value}
                  onValueChange={(k) => {
                    field.onChange(k);
                    setErrors({}); // the last run's refusals were about another kind
                    setShownId(draft.runs[k as CreationKind]?.id ?? null);
                  }}
                  options={CREATION_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
                />
                <p className="mt-2 text-sm text-muted-foreground">{KIND_HELP[field.value]}</p>
              </div>
            )}
          />
          <ImageCard
            image={image}
            imageSize={imageSize}
            urlText={draft.urlText}
            onUrlText={(urlText) => updateDraft({ urlText })}
            onFile={(file) => void chooseFile(file)}
            onUrl={chooseUrl}
            checking={checking}
            refused={refused}
            errors={errors}
            showPreview={!withMask}
          />
          {kind === 'edit' ? (
            <EditCard
              form={form}
              errors={errors}
              maskInPrompt={maskInPrompt}
              onMaskInPrompt={(on) => updateDraft({ maskInPrompt: on })}
              withMask={withMask}
              image={image && imageSize ? { url: image.previewUrl, ...imageSize } : null}
              mask={mask}
              painter={painter}
              painted={painted}
              onPainted={setPainted}
              layers={layers}
              onLayers={setLayers}
            />
          ) : null}
          <SettingsCard form={form} kind={kind} errors={errors} styles={styles.data} />
        </div>

        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <RunCard
            scope={scope}
            kindLabel={KIND_LABELS[kind]}
            quote={quote.data}
            balanceCents={overview.data?.balance_cents}
            option={option}
            availability={availability.data}
            waitingFor={waitingFor}
            running={sending !== null}
            disabled={runDisabled}
            errors={errors}
          />
          {shownId ? (
            <ResultPanel
              key={shownId}
              generation={generation}
              missing={followed.missing}
              stale={sending !== null}
              requestId={shownRecord?.requestId ?? generation?.request_id ?? null}
              beforeUrl={beforeUrl}
              onUseAsInput={(url, id) => confirmDiscard(() => takeImage({ type: 'output', url, generationId: id }, url))}
              preview={resultPreview}
              previewSaid={resultPreview !== null && resultPreview === runPreview}
            />
          ) : null}
          <RunHistoryPanel
            entries={history}
            shownId={shownId}
            base={scope.base}
            kindLabels={KIND_LABELS}
            onOpen={(entry) => {
              form.setValue('kind', entry.kind);
              setErrors({});
              setShownId(entry.id);
            }}
          />
          <CodePanel
            baseUrl={hydrated ? window.location.origin : ''}
            route={CREATION_ROUTES[kind]}
            body={body}
            idempotencyKey={codeKey ?? undefined}
            waitingFor={image ? null : 'Choose a valid image first: without one, the copied request would be refused.'}
            files={withMask && mask ? [{ name: MASK_FILE_NAME, label: 'Download mask.png', read: () => painter.current?.exportPng() ?? Promise.reject(new Error('Paint the mask first.')) }] : []}
          />
        </div>
      </form>
      <ConfirmDialog
        open={pendingChoice !== null}
        onOpenChange={(open) => {
          if (!open) setPendingChoice(null);
        }}
        title="Discard the painted mask?"
        description="The mask is painted on the current image: a new image starts a blank mask."
        confirmLabel="Use the new image"
        onConfirm={() => {
          pendingChoice?.();
          setPendingChoice(null);
        }}
      />
    </div>
  );
}
