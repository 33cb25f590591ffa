'use client';
import * as React from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import type { FieldErrors } from '@/console-client/problems';
import { FieldError } from './field-error';
import { LayersEditor, type LayerDraft } from './layers-editor';
import { MaskPainter, type MaskPainterHandle, type PaintedColor } from './mask-painter';
import type { PlaygroundForm } from './playground-request';
import type { MaskState } from './use-playground-draft';

/** An edit's mode, its instruction, and the mask painter with the layers of a masked edit. */
export function EditCard({
  form,
  errors,
  maskInPrompt,
  onMaskInPrompt,
  withMask,
  image,
  mask,
  painter,
  painted,
  onPainted,
  layers,
  onLayers,
}: {
  form: UseFormReturn<PlaygroundForm>;
  errors: FieldErrors;
  maskInPrompt: boolean;
  onMaskInPrompt: (on: boolean) => void;
  withMask: boolean;
  image: { url: string; width: number; height: number } | null;
  mask: MaskState | null;
  painter: React.RefObject<MaskPainterHandle | null>;
  painted: PaintedColor[];
  onPainted: (painted: PaintedColor[]) => void;
  layers: LayerDraft[];
  onLayers: (layers: LayerDraft[]) => void;
}) {
  const mode = form.watch('mode');
  return (
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
        {mode === 'prompt' ? (
          <div className="grid gap-1.5">
            <Label htmlFor="prompt">Instruction</Label>
            <textarea id="prompt" className="min-h-20 rounded-md border bg-background p-2 text-sm" maxLength={1000} {...form.register('prompt')} placeholder="Paint the walls sage green" />
            <p className="text-xs text-muted-foreground">1 to 1000 characters, any language. Test mode does not moderate instructions.</p>
            <FieldError errors={errors} param="prompt" />
            <label className="flex items-center gap-2 text-sm">
              <Checkbox checked={maskInPrompt} onCheckedChange={(v) => onMaskInPrompt(v === true)} aria-label="Limit the change to a painted area" /> Limit the change to a painted area (paint one colour)
            </label>
          </div>
        ) : null}
        {withMask ? (
          image && mask ? (
            <MaskPainter ref={painter} key={image.url} imageUrl={image.url} imageWidth={image.width} imageHeight={image.height} raster={mask.raster} history={mask.history} onChange={onPainted} />
          ) : (
            <p className="text-sm text-muted-foreground">Choose an image to paint its mask.</p>
          )
        ) : null}
        <FieldError errors={errors} param="mask" />
        {mode === 'mask' ? <LayersEditor painted={painted} layers={layers} onChange={onLayers} errors={errors} /> : null}
      </CardContent>
    </Card>
  );
}
