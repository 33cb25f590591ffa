'use client';
import * as React from 'react';
import { Download, Loader2, ZoomIn, ZoomOut } from 'lucide-react';
import type { ConsoleOutputs } from '@/console-client/trpc';
import { money } from '@/console-client/format';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { GenerationProgress } from '@/components/generations/generation-progress';
import { generationStatusLabel } from '@/components/generations/status-label';

type Generation = ConsoleOutputs['generations']['get'];

/**
 * The generation as it progresses (followed on the server), then the output with a before/after
 * slider, zoom, download and its JSON. `beforeUrl` is this generation's own input (never the
 * image chosen since); `stale` dims it while a new run is being sent. `preview` says when a
 * test-mode output is a preview: a badge, and the sentence why unless the Run card above already
 * says it (`previewSaid`: the same kind in test mode), so the notice appears once.
 */
export function ResultPanel({
  generation,
  requestId,
  beforeUrl,
  onUseAsInput,
  preview,
  previewSaid = false,
  stale = false,
  missing = false,
}: {
  stale?: boolean;
  missing?: boolean;
  generation: Generation | null;
  requestId: string | null;
  beforeUrl: string | null;
  onUseAsInput: (url: string, id: string) => void;
  preview: string | null;
  previewSaid?: boolean;
}) {
  const [split, setSplit] = React.useState(50);
  const [zoom, setZoom] = React.useState(1);
  if (!generation) {
    return (
      <Card>
        <CardContent className="p-4 text-sm text-muted-foreground" role="status">
          {missing ? 'This generation is not in this organization and mode (or is past its retention).' : 'Reading the generation…'}
        </CardContent>
      </Card>
    );
  }
  const output = generation.output[0];
  return (
    <Card className={cn('min-w-0 transition-opacity', stale && 'opacity-50')} aria-busy={stale || undefined} data-testid="result" data-generation={generation.id}>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          Result{' '}
          <Badge data-testid="generation-status" variant={generation.status === 'failed' ? 'destructive' : 'secondary'}>
            {generationStatusLabel(generation.status)}
          </Badge>
          {stale ? <span className="text-sm font-normal text-muted-foreground">previous run: a new one is being sent…</span> : null}
          {preview ? (
            <Badge variant="outline" data-testid="preview-badge">
              Test-mode preview
            </Badge>
          ) : null}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-3">
        {preview && !previewSaid ? (
          <p className="rounded-md border bg-muted px-3 py-2 text-xs" data-testid="preview-note">
            {preview}
          </p>
        ) : null}
        {generation.status === 'in_progress' ? (
          <GenerationProgress id={generation.id} progress={generation.progress} stage={generation.progress_stage} createdAt={generation.created_at} />
        ) : null}
        <p className="text-sm [overflow-wrap:anywhere]" role="status" aria-live="polite">
          {generation.status === 'in_progress' ? (
            <span className="inline-flex items-center gap-2">
              <Loader2 className="size-4 animate-spin" aria-hidden /> {generation.started_at ? 'Generating…' : 'Waiting in the queue…'} ({generation.id})
            </span>
          ) : (
            <>
              {generation.id}: {generationStatusLabel(generation.status).toLowerCase()}, cost {money(generation.cost.amount)}
              {generation.livemode ? '' : ' (test mode: not charged)'}
            </>
          )}
        </p>
        {requestId ? (
          <p className="text-xs break-all text-muted-foreground">
            Request <code data-testid="request-id">{requestId}</code> (in the request log as POST /playground/…)
          </p>
        ) : null}
        {generation.error ? (
          <p role="alert" className="text-sm text-destructive">
            {generation.error.message} <code className="text-xs">{generation.error.code}</code>
          </p>
        ) : null}
        {output ? (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <Button size="icon" variant="outline" aria-label="Zoom out of the result" disabled={zoom <= 1} onClick={() => setZoom((z) => Math.max(1, z / 2))}>
                <ZoomOut aria-hidden />
              </Button>
              <Button size="icon" variant="outline" aria-label="Zoom into the result" disabled={zoom >= 8} onClick={() => setZoom((z) => Math.min(8, z * 2))}>
                <ZoomIn aria-hidden />
              </Button>
              <Button asChild size="sm" variant="outline">
                <a href={output.url} download={`${generation.id}.webp`}>
                  <Download aria-hidden /> Download
                </a>
              </Button>
              <Button size="sm" variant="secondary" onClick={() => onUseAsInput(output.url, generation.id)}>
                Use as input
              </Button>
              <span className="text-xs text-muted-foreground">
                {output.width}×{output.height} {output.content_type}
              </span>
            </div>
            <div className="relative max-h-[60vh] overflow-auto rounded-md border">
              <div className="relative" style={{ width: `${zoom * 100}%`, aspectRatio: `${output.width} / ${output.height}` }}>
                {/* eslint-disable-next-line @next/next/no-img-element -- signed output URL */}
                <img src={output.url} alt="The result" data-testid="result-image" className="absolute inset-0 size-full object-fill" />
                {beforeUrl ? (
                  <div className="absolute inset-0 overflow-hidden" style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }}>
                    {/* eslint-disable-next-line @next/next/no-img-element -- the user's own image */}
                    <img src={beforeUrl} alt="The input, before" data-testid="before-image" className="size-full object-fill" />
                  </div>
                ) : null}
              </div>
            </div>
            {beforeUrl ? (
              <label className="flex items-center gap-2 text-sm">
                Before / after
                <input type="range" min={0} max={100} value={split} onChange={(e) => setSplit(Number(e.target.value))} className="flex-1" aria-valuetext={`${split}% before`} />
              </label>
            ) : null}
          </>
        ) : null}
        <details>
          <summary className="cursor-pointer text-sm font-medium">Generation JSON</summary>
          <pre data-testid="generation-json" tabIndex={0} aria-label="Generation JSON" className="mt-2 max-h-80 max-w-full overflow-auto rounded-md bg-muted p-3 text-xs">
            {JSON.stringify(generation, null, 2)}
          </pre>
        </details>
      </CardContent>
    </Card>
  );
}
