'use client';
import * as React from 'react';
import { useSearchParams } from 'next/navigation';
import { settingsFromLoggedRequest } from './replay-request';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { TRPCClientError } from '@trpc/client';
import { Loader2, Play, Plus, Upload, X } from 'lucide-react';
import { ACCESSORY_CATEGORIES, QUALITIES, SCALES } from '@/shared/creations/schemas';
import { CREATION_KINDS, CREATION_ROUTES, type CreationKind } from '@/shared/playground/playground-inputs';
import { useTRPC, useTRPCClient, type ConsoleOutputs } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { money } from '@/console-client/format';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { SegmentedRadioGroup } from '@/components/ui/radio-group';
import { useHydrated } from '@/components/ui/use-hydrated';
import { FieldError, type FieldErrors } from './field-error';
import { LayersEditor, layerProblems, type LayerDraft } from './layers-editor';
import { MaskPainter, type MaskPainterHandle, type PaintedColor } from './mask-painter';
import { checkBody, DEFAULT_FORM, formFromGeneration, MASK_FILE_NAME, playgroundForm, requestBody, type ImageSource, type PlaygroundForm } from './playground-request';
import { CodePanel } from './code-panel';
import { ResultPanel } from './result-panel';
import { FOLLOW_WAIT_MS, useWaitingRead } from '@/components/generations/waiting-read';
import { AvailabilityNote, availabilityOf, AvailabilityTable, previewNote, type Availability } from './availability';
import { isFileRef } from './copy-as-code';

const KIND_LABELS: Record<CreationKind, string> = { render: 'Render', edit: 'Edit', decoration: 'Decoration', upscale: 'Upscale' };
const KIND_HELP: Record<CreationKind, string> = {
  render: 'A photorealistic render of a draft image (sketch, 3D view).',
  edit: 'Change an image by a written instruction, or by painting areas and saying what happens to each.',
  decoration: 'Decorate a furnished room with accessories in a style.',
  upscale: 'Upscale x2 or x4 without changing the content.',
};

function apiErrorOf(error: unknown): { code: string; message: string; param?: string } | null {
  if (error instanceof TRPCClientError) {
    const data = (error as TRPCClientError<never>).data as { apiError?: { code: string; message: string; param?: string } } | undefined;
    return data?.apiError ?? { code: 'request_failed', message: error.message };
  }
  if (error instanceof Error) return { code: 'request_failed', message: error.message };
  return null;
}

/** The image's natural size (after EXIF orientation, as the browser applies it). */
function useImageSize(url: string | null): { width: number; height: number } | null {
  const [measured, setMeasured] = React.useState<{ url: string; width: number; height: number } | null>(null);
  React.useEffect(() => {
    if (!url) return;
    const img = new Image();
    img.onload = () => setMeasured({ url, width: img.naturalWidth, height: img.naturalHeight });
    img.src = url;
  }, [url]);
  return measured && measured.url === url ? { width: measured.width, height: measured.height } : null;
}

type Generation = ConsoleOutputs['generations']['get'];

/**
 * The run's generation: the creation answers when the generation ends (or after FOLLOW_WAIT_MS
 * with it in progress); a longer run is then followed by reads that each answer as soon as it
 * ends or after FOLLOW_WAIT_MS with its progress, the next starting at once. No polling delay
 * stands between the end and the screen.
 */
function useFollowedGeneration(run: { generation: Generation } | null): Generation | null {
  const client = useTRPCClient();
  const scopeInput = useScopeInput();
  const [followed, setFollowed] = React.useState<{ generation: Generation; reads: number } | null>(null);
  const created = run?.generation ?? null;
  const shown = followed && created && followed.generation.id === created.id ? followed : created ? { generation: created, reads: 0 } : null;
  useWaitingRead(
    shown?.generation.status === 'in_progress',
    shown ? `${shown.generation.id} ${shown.reads}` : null,
    async (signal) => {
      if (!shown) return;
      const generation = await client.playground.follow.query({ ...scopeInput, id: shown.generation.id, waitMs: FOLLOW_WAIT_MS }, { signal });
      if (!signal.aborted) setFollowed({ generation, reads: shown.reads + 1 });
    },
    async () => shown && setFollowed({ generation: shown.generation, reads: shown.reads + 1 }),
  );
  return shown?.generation ?? null;
}

export function PlaygroundScreen() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const scope = useScope();
  const scopeInput = useScopeInput();
  const queryClient = useQueryClient();
  const searchParams = useSearchParams();
  const replayId = searchParams.get('replay');

  const form = useForm<PlaygroundForm>({ resolver: zodResolver(playgroundForm), defaultValues: DEFAULT_FORM });
  const metadata = useFieldArray({ control: form.control, name: 'metadata' });
  const values = useWatch({ control: form.control }) as PlaygroundForm;
  const kind = values.kind;

  const [image, setImage] = React.useState<ImageSource | null>(null);
  const [urlText, setUrlText] = React.useState('');
  const [layers, setLayers] = React.useState<LayerDraft[]>([]);
  const [painted, setPainted] = React.useState<PaintedColor[]>([]);
  const [maskInPrompt, setMaskInPrompt] = React.useState(false);
  const [errors, setErrors] = React.useState<FieldErrors>({});
  // One result per kind: switching to another kind never shows this kind's result.
  const [runs, setRuns] = React.useState<Partial<Record<CreationKind, { generation: Generation; requestId: string }>>>({});
  const [running, setRunning] = React.useState(false);
  // Random values come after hydration: the server's HTML and the first client render must agree.
  const hydrated = useHydrated();
  const [codeKey, setCodeKey] = React.useState<string | null>(null);
  React.useEffect(() => {
    if (hydrated) setCodeKey((key) => key ?? crypto.randomUUID()); // eslint-disable-line react-hooks/set-state-in-effect -- a client-only value, once
  }, [hydrated]);
  const painter = React.useRef<MaskPainterHandle>(null);

  const previewUrl = React.useMemo(() => (image ? (image.type === 'file' ? URL.createObjectURL(image.file) : image.url) : null), [image]);
  React.useEffect(() => () => (previewUrl && image?.type === 'file' ? URL.revokeObjectURL(previewUrl) : undefined), [previewUrl, image]);
  const imageSize = useImageSize(previewUrl);

  const styles = useQuery(trpc.playground.styles.queryOptions(scopeInput, { enabled: kind === 'render' || kind === 'decoration' }));
  const availability = useQuery(trpc.playground.availability.queryOptions(scopeInput, { staleTime: 5 * 60_000 }));
  const quote = useQuery(trpc.playground.quote.queryOptions({ ...scopeInput, kind, quality: values.quality, scale: values.scale }));

  // Replay from the log: the generation's settings fill the form (images are never kept).
  const replayGeneration = useQuery(trpc.generations.get.queryOptions({ ...scopeInput, id: replayId ?? 'gen_0' }, { enabled: replayId !== null && /^gen_/.test(replayId) }));
  // Or a logged request (a refused one too): its logged parameters.
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
  const [replayedId, setReplayedId] = React.useState<string | null>(null);
  if (replay && replayed && replayedId !== replay.id) {
    setReplayedId(replay.id);
    setLayers(replayed.layers);
  }
  React.useEffect(() => {
    if (replayed) form.reset(replayed.form);
  }, [replayed, form]);
  const replayNote =
    replay && replayed
      ? `Settings of ${replay.label}. Received images are never kept: choose the image${replayed.form.kind === 'edit' && replayed.form.mode === 'mask' ? ' and paint the mask' : ''} again.`
      : null;

  const withMask = kind === 'edit' && (values.mode === 'mask' || maskInPrompt);
  const body = requestBody(values, { image, withMask, layers });
  const problems = layerProblems(painted, layers);
  const blocked = kind === 'edit' && values.mode === 'mask' && (problems.unlayered.length > 0 || problems.unpainted.length > 0);

  const lastRun = runs[kind] ?? null;
  const generation = useFollowedGeneration(lastRun);
  const option: Availability | null = availabilityOf(availability.data, kind, values.mode);
  const unavailable = scope.mode === 'live' && option?.live === 'unavailable';

  const create = useMutation(trpc.playground.create.mutationOptions());

  /** Files go through create_upload's intake: a single-use PUT URL, then the file_… id in the body. */
  async function upload(blob: Blob): Promise<string> {
    const created = await client.playground.createUpload.mutate(scopeInput);
    const res = await fetch(created.upload_url, { method: 'PUT', body: blob });
    if (!res.ok) {
      const payload = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
      throw new Error(payload?.error ? `${payload.error.code}: ${payload.error.message}` : `upload failed (${res.status})`);
    }
    return created.id;
  }

  /**
   * The chosen image file is uploaded as soon as it is chosen (and again after each run, since a
   * generation consumes its upload): Run then only creates, one round trip as a /v1 call is.
   * An upload refused then is said at Run, under the image.
   */
  const preparedFile = React.useRef<{ file: File; id: Promise<string> } | null>(null);
  function prepareUpload(file: File): void {
    const id = upload(file);
    id.catch(() => undefined); // awaited (and its refusal shown) at Run
    preparedFile.current = { file, id };
  }
  function takeUpload(file: File): Promise<string> {
    const prepared = preparedFile.current;
    preparedFile.current = null;
    return prepared && prepared.file === file ? prepared.id : upload(file);
  }

  async function run() {
    if (!image) {
      setErrors({ image: { code: 'parameter_invalid', message: "Missing required parameter 'image': choose a file, an https URL or a previous output." } });
      return;
    }
    if (blocked || unavailable) return;
    const local = checkBody(kind, body);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setRunning(true);
    try {
      // Resolve files to uploads (image, painted mask, element images).
      const resolved = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
      let imageUpload: { file: File; id: string } | null = null;
      if (isFileRef(resolved.image) && image.type === 'file') {
        const file = image.file;
        const id = await takeUpload(file).catch((error: unknown) => {
          prepareUpload(file); // a fresh one for the next try
          throw error;
        });
        imageUpload = { file, id };
        resolved.image = id;
      }
      if (isFileRef(resolved.mask) && painter.current) resolved.mask = await upload(await painter.current.exportPng());
      if (Array.isArray(resolved.layers)) {
        resolved.layers = await Promise.all(
          (resolved.layers as Record<string, unknown>[]).map(async (l, i) => {
            const file = layers[i]?.elementFile;
            return isFileRef(l.element) && file ? { ...l, element: await upload(file) } : l;
          }),
        );
      }
      const result = await create.mutateAsync({ ...scopeInput, kind, body: resolved, idempotencyKey: `playground-${crypto.randomUUID()}`, waitMs: FOLLOW_WAIT_MS }).catch((error: unknown) => {
        // A refused request leaves its upload available (spec): the next try uses it again,
        // unless the refusal is about that upload (expired or used): then a fresh one.
        if (imageUpload && apiErrorOf(error)?.param === 'image') prepareUpload(imageUpload.file);
        else if (imageUpload) preparedFile.current = { file: imageUpload.file, id: Promise.resolve(imageUpload.id) };
        throw error;
      });
      if (imageUpload) prepareUpload(imageUpload.file); // this one is the generation's now
      setRuns((r) => ({ ...r, [kind]: { generation: result.generation, requestId: result.requestId } }));
      void queryClient.invalidateQueries({ queryKey: trpc.generations.pathKey() });
      setCodeKey(crypto.randomUUID());
      void quote.refetch();
    } catch (error) {
      const apiError = apiErrorOf(error);
      if (apiError) setErrors({ [apiError.param ?? 'request']: { code: apiError.code, message: apiError.message } });
    } finally {
      setRunning(false);
    }
  }

  /** A new image: the painted mask and the refusals about the old image no longer apply. */
  function chooseImage(source: ImageSource) {
    preparedFile.current = null;
    if (source.type === 'file') prepareUpload(source.file);
    setImage(source);
    setPainted([]);
    setErrors(({ image: _image, mask: _mask, ...rest }) => rest);
  }

  function useOutput(url: string, id: string) {
    chooseImage({ type: 'output', url, generationId: id });
  }

  const q = quote.data;

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
          void run();
        }}
        noValidate
        aria-label="Playground request"
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
                  }}
                  options={CREATION_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
                />
                <p className="mt-2 text-sm text-muted-foreground">{KIND_HELP[field.value]}</p>
              </div>
            )}
          />

          <Card>
            <CardHeader>
              <CardTitle>Image</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3">
              <ImageDrop onFile={(file) => chooseImage({ type: 'file', file })} />
              <div className="flex gap-2">
                <Input aria-label="Image URL" placeholder="https://example.com/room.jpg" value={urlText} onChange={(e) => setUrlText(e.target.value)} />
                <Button variant="outline" disabled={!urlText} onClick={() => chooseImage({ type: 'url', url: urlText.trim() })}>
                  Use URL
                </Button>
              </div>
              {image ? (
                <p className="text-sm break-all" data-testid="image-source">
                  {image.type === 'file' ? `File: ${image.file.name}` : image.type === 'url' ? `URL: ${image.url}` : `Output of ${image.generationId}`}
                  {imageSize ? ` (${imageSize.width}×${imageSize.height})` : ''}
                </p>
              ) : null}
              <FieldError errors={errors} param="image" />
              {previewUrl && !withMask ? (
                // eslint-disable-next-line @next/next/no-img-element -- the user's own image
                <img src={previewUrl} alt="The input image" className="max-h-80 w-auto rounded border object-contain" />
              ) : null}
            </CardContent>
          </Card>

          {kind === 'edit' ? (
            <Card>
              <CardHeader>
                <CardTitle>Edit</CardTitle>
              </CardHeader>
              <CardContent className="grid gap-4">
                <Controller
                  control={form.control}
                  name="mode"
                  render={({ field }) => (
                    <div className="flex gap-4 text-sm" role="radiogroup" aria-label="Edit mode">
                      <label className="flex items-center gap-1">
                        <input type="radio" name="mode" checked={field.value === 'prompt'} onChange={() => field.onChange('prompt')} /> By instruction (prompt)
                      </label>
                      <label className="flex items-center gap-1">
                        <input type="radio" name="mode" checked={field.value === 'mask'} onChange={() => field.onChange('mask')} /> By painted areas (mask and layers)
                      </label>
                    </div>
                  )}
                />
                <FieldError errors={errors} param="mode" />
                {values.mode === 'prompt' ? (
                  <div className="grid gap-1.5">
                    <Label htmlFor="prompt">Instruction</Label>
                    <textarea id="prompt" className="min-h-20 rounded-md border bg-background p-2 text-sm" maxLength={1000} {...form.register('prompt')} placeholder="Paint the walls sage green" />
                    <p className="text-xs text-muted-foreground">1 to 1000 characters, any language. Test mode does not moderate instructions.</p>
                    <FieldError errors={errors} param="prompt" />
                    <label className="flex items-center gap-2 text-sm">
                      <Checkbox checked={maskInPrompt} onCheckedChange={(v) => setMaskInPrompt(v === true)} aria-label="Limit the change to a painted area" /> Limit the change to a painted area (paint one colour)
                    </label>
                  </div>
                ) : null}
                {withMask ? (
                  previewUrl && imageSize ? (
                    <MaskPainter ref={painter} key={previewUrl} imageUrl={previewUrl} imageWidth={imageSize.width} imageHeight={imageSize.height} onChange={setPainted} />
                  ) : (
                    <p className="text-sm text-muted-foreground">Choose an image to paint its mask.</p>
                  )
                ) : null}
                <FieldError errors={errors} param="mask" />
                {kind === 'edit' && values.mode === 'mask' ? <LayersEditor painted={painted} layers={layers} onChange={setLayers} errors={errors} /> : null}
              </CardContent>
            </Card>
          ) : null}

          <Card>
            <CardHeader>
              <CardTitle>Settings</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              {kind === 'upscale' ? (
                <Controller
                  control={form.control}
                  name="scale"
                  render={({ field }) => (
                    <div className="grid gap-1.5">
                      <Label htmlFor="scale">Scale</Label>
                      <Select id="scale" label="Scale" value={field.value} onValueChange={field.onChange} options={SCALES.map((s) => ({ value: s, label: s }))} />
                      <FieldError errors={errors} param="scale" />
                    </div>
                  )}
                />
              ) : (
                <Controller
                  control={form.control}
                  name="quality"
                  render={({ field }) => (
                    <div className="grid gap-1.5">
                      <Label htmlFor="quality">Quality (output&apos;s long side)</Label>
                      <Select id="quality" label="Quality" value={field.value} onValueChange={field.onChange} options={QUALITIES.map((s) => ({ value: s, label: s }))} />
                      <FieldError errors={errors} param="quality" />
                    </div>
                  )}
                />
              )}
              {kind === 'render' || kind === 'decoration' ? (
                <Controller
                  control={form.control}
                  name="style"
                  render={({ field }) => (
                    <fieldset className="grid min-w-0 gap-1.5">
                      <legend className="text-sm font-medium">Style</legend>
                      <div className="grid max-h-64 gap-1 overflow-y-auto rounded-md border p-2" role="radiogroup" aria-label="Style">
                        {[{ id: '', name: kind === 'decoration' ? 'Keep the current style' : 'No style', description: '' }, ...(styles.data ?? [])].map((s) => (
                          <label key={s.id || 'none'} className="flex items-start gap-2 rounded p-1 text-sm hover:bg-accent">
                            <input type="radio" name="style" className="mt-1" checked={field.value === s.id} onChange={() => field.onChange(s.id)} />
                            <span>
                              <span className="font-medium">{s.name}</span>
                              {s.description ? <span className="block text-xs text-muted-foreground">{s.description}</span> : null}
                            </span>
                          </label>
                        ))}
                      </div>
                      <FieldError errors={errors} param="style" />
                    </fieldset>
                  )}
                />
              ) : null}
              {kind === 'decoration' ? (
                <Controller
                  control={form.control}
                  name="categories"
                  render={({ field }) => (
                    <fieldset className="grid min-w-0 gap-1.5">
                      <legend className="text-sm font-medium">Accessory categories (none checked: all that suit the style)</legend>
                      <div className="grid grid-cols-2 gap-1 sm:grid-cols-3">
                        {ACCESSORY_CATEGORIES.map((c) => (
                          <label key={c} className="flex items-center gap-2 text-sm">
                            <Checkbox
                              checked={field.value.includes(c)}
                              onCheckedChange={(v) => field.onChange(v === true ? [...field.value, c] : field.value.filter((x) => x !== c))}
                              aria-label={c.replace('_', ' ')}
                            />
                            {c.replace('_', ' ')}
                          </label>
                        ))}
                      </div>
                      <FieldError errors={errors} param="categories" />
                    </fieldset>
                  )}
                />
              ) : null}
              <fieldset className="grid min-w-0 gap-2">
                <legend className="text-sm font-medium">Metadata (up to 16 pairs, returned unchanged)</legend>
                {metadata.fields.map((f, i) => (
                  <div key={f.id} className="flex min-w-0 gap-2">
                    <Input aria-label={`Metadata key ${i + 1}`} placeholder="key" maxLength={40} {...form.register(`metadata.${i}.key`)} />
                    <Input aria-label={`Metadata value ${i + 1}`} placeholder="value" maxLength={500} {...form.register(`metadata.${i}.value`)} />
                    <Button size="icon" variant="ghost" aria-label={`Remove metadata pair ${i + 1}`} onClick={() => metadata.remove(i)}>
                      <X aria-hidden />
                    </Button>
                  </div>
                ))}
                <div>
                  <Button size="sm" variant="outline" disabled={metadata.fields.length >= 16} onClick={() => metadata.append({ key: '', value: '' })}>
                    <Plus aria-hidden /> Add a pair
                  </Button>
                </div>
                <FieldError errors={errors} param="metadata" />
              </fieldset>
              <Controller
                control={form.control}
                name="background"
                render={({ field }) => (
                  <div className="flex items-center gap-2">
                    <Switch id="background" checked={field.value} onCheckedChange={field.onChange} />
                    <Label htmlFor="background">background: answer 202 at acceptance (in the copied code; the playground always follows the generation live)</Label>
                  </div>
                )}
              />
            </CardContent>
          </Card>
        </div>

        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
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
              <AvailabilityNote option={option} mode={scope.mode} />
              {blocked ? (
                <p role="alert" className="text-sm font-medium text-destructive" data-testid="blocked">
                  Every painted colour needs a layer, and every layer a painted colour, before sending.
                </p>
              ) : null}
              <Button type="submit" disabled={running || blocked || unavailable} data-testid="run">
                {running ? <Loader2 className="animate-spin" aria-hidden /> : <Play aria-hidden />} Run {KIND_LABELS[kind].toLowerCase()}
              </Button>
              <FieldError errors={errors} param="request" />
              {Object.entries(errors)
                .filter(([param]) => !['image', 'mask', 'prompt', 'quality', 'scale', 'style', 'categories', 'metadata', 'mode', 'request', 'layers'].includes(param) && !param.startsWith('layers['))
                .map(([param]) => (
                  <FieldError key={param} errors={errors} param={param} />
                ))}
              <AvailabilityTable list={availability.data} />
            </CardContent>
          </Card>
          {lastRun ? (
            <ResultPanel
              generation={generation}
              requestId={lastRun.requestId}
              beforeUrl={previewUrl}
              onUseAsInput={useOutput}
              preview={generation && !generation.livemode ? previewNote(availabilityOf(availability.data, generation.type, (generation.input as { mode?: string }).mode)) : null}
            />
          ) : null}
          <CodePanel
            baseUrl={hydrated ? window.location.origin : ''}
            route={CREATION_ROUTES[kind]}
            body={body}
            idempotencyKey={codeKey ?? undefined}
            files={withMask && previewUrl && imageSize ? [{ name: MASK_FILE_NAME, label: 'Download mask.png', read: () => painter.current?.exportPng() ?? Promise.reject(new Error('Paint the mask first.')) }] : []}
          />
        </div>
      </form>
    </div>
  );
}

function ImageDrop({ onFile }: { onFile: (file: File) => void }) {
  const [over, setOver] = React.useState(false);
  return (
    <label
      className={`flex cursor-pointer flex-col items-center gap-2 rounded-md border-2 border-dashed p-6 text-center text-sm focus-within:ring-2 focus-within:ring-ring ${over ? 'border-primary bg-accent' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const file = e.dataTransfer.files[0];
        if (file) onFile(file);
      }}
    >
      <Upload className="size-5" aria-hidden />
      <span>Drop a photo here or choose a file (JPEG, PNG or WebP, up to 10 MB)</span>
      <input type="file" accept="image/jpeg,image/png,image/webp" className="sr-only" aria-label="Image file" onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = ''; // choosing the same file again (after "Use as input") fires a change
        }}
      />
    </label>
  );
}
