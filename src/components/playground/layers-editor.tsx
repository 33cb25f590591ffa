'use client';
import * as React from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AlertTriangle, Plus, X } from 'lucide-react';
import { FINISHES } from '@/shared/creations/schemas';
import { useTRPC } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { ErrorState } from '@/components/ui/states';
import type { MaskColor } from './mask-raster';
import type { PaintedColor } from './mask-painter';
import { FieldError, type FieldErrors } from './field-error';

export type LayerAction = 'modify' | 'remove' | 'add' | 'replace';

/** A layer as the form holds it; playground-request.ts turns it into the /v1 layer object. */
export interface LayerDraft {
  mask_color: MaskColor;
  action: LayerAction;
  /** modify: by colour (+ finish) or by material. */
  by: 'color' | 'material';
  color: string;
  finish: (typeof FINISHES)[number];
  material: string | null;
  materialName: string | null;
  /** add / replace: the element image (a file, or an https URL). */
  elementFile: File | null;
  elementUrl: string;
}

export function newLayer(color: MaskColor): LayerDraft {
  return { mask_color: color, action: 'modify', by: 'color', color: '#B0B7A4', finish: 'default', material: null, materialName: null, elementFile: null, elementUrl: '' };
}

/** Painted colours with no layer, and layers whose colour is not painted: what the server refuses (mask_colors_mismatch). */
export function layerProblems(painted: readonly PaintedColor[], layers: readonly LayerDraft[]): { unlayered: MaskColor[]; unpainted: MaskColor[] } {
  const counted = painted.filter((p) => p.countsForServer).map((p) => p.color);
  return { unlayered: counted.filter((c) => !layers.some((l) => l.mask_color === c)), unpainted: layers.map((l) => l.mask_color).filter((c) => !counted.includes(c)) };
}

const ACTIONS: { value: LayerAction; label: string }[] = [
  { value: 'modify', label: 'Modify (new colour or material)' },
  { value: 'remove', label: 'Remove the object' },
  { value: 'add', label: 'Add an element' },
  { value: 'replace', label: 'Replace the object' },
];

export function LayersEditor({ painted, layers, onChange, errors }: { painted: readonly PaintedColor[]; layers: LayerDraft[]; onChange: (layers: LayerDraft[]) => void; errors: FieldErrors }) {
  const { unlayered, unpainted } = layerProblems(painted, layers);
  const update = (i: number, patch: Partial<LayerDraft>) => onChange(layers.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const tooSmall = painted.filter((p) => !p.countsForServer);

  return (
    <div className="grid gap-3" data-testid="layers-editor">
      {unlayered.map((c) => (
        <div key={c} role="alert" data-testid="unlayered-color" className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          <span className="flex items-center gap-2">
            <AlertTriangle className="size-4" aria-hidden />
            <span className="inline-block size-3 rounded-full border" style={{ backgroundColor: c }} aria-hidden />
            Colour {c} is painted but has no layer: the server would refuse the mask (mask_colors_mismatch).
          </span>
          <Button size="sm" variant="outline" disabled={layers.length >= 3} onClick={() => onChange([...layers, newLayer(c)])}>
            <Plus aria-hidden /> Add a layer for {c}
          </Button>
        </div>
      ))}
      {tooSmall.map((p) => (
        <p key={p.color} className="text-xs text-muted-foreground">
          {p.color} covers under 0.01 % of the photo: the server counts it as not painted.
        </p>
      ))}
      {layers.length === 0 && unlayered.length === 0 ? <p className="text-sm text-muted-foreground">Paint an area, then give its colour a layer (1 to 3 layers, one per colour).</p> : null}
      {layers.map((layer, i) => (
        <fieldset key={layer.mask_color} className="grid min-w-0 gap-2 rounded-md border p-3" data-testid={`layer-${layer.mask_color}`}>
          <legend className="flex items-center gap-2 px-1 text-sm font-medium">
            <span className="inline-block size-3 rounded-full border" style={{ backgroundColor: layer.mask_color }} aria-hidden />
            Layer {i + 1}: {layer.mask_color}
          </legend>
          {unpainted.includes(layer.mask_color) ? (
            <p role="alert" className="text-xs font-medium text-destructive">
              {layer.mask_color} is not painted on the mask: paint it or remove this layer.
            </p>
          ) : null}
          <FieldError errors={errors} param={`layers[${i}].mask_color`} />
          <div className="flex items-end gap-2">
            <div className="grid min-w-0 flex-1 gap-1.5">
              <Label htmlFor={`layer-${i}-action`}>Action</Label>
              <Select id={`layer-${i}-action`} label={`Action of layer ${i + 1}`} value={layer.action} onValueChange={(v) => update(i, { action: v as LayerAction })} options={ACTIONS} />
            </div>
            <Button size="icon" variant="ghost" aria-label={`Delete layer ${i + 1}`} onClick={() => onChange(layers.filter((_, j) => j !== i))}>
              <X aria-hidden />
            </Button>
          </div>
          <FieldError errors={errors} param={`layers[${i}].action`} />
          {layer.action === 'modify' ? <ModifyFields layer={layer} index={i} update={(patch) => update(i, patch)} errors={errors} /> : null}
          {layer.action === 'add' || layer.action === 'replace' ? (
            <div className="grid gap-1.5">
              <Label htmlFor={`layer-${i}-element`}>Element image (JPEG, PNG or WebP)</Label>
              <input id={`layer-${i}-element`} type="file" accept="image/jpeg,image/png,image/webp" className="max-w-full text-sm" onChange={(e) => update(i, { elementFile: e.target.files?.[0] ?? null })} />
              <Input aria-label={`Element image URL of layer ${i + 1}`} placeholder="or https://… URL" value={layer.elementUrl} onChange={(e) => update(i, { elementUrl: e.target.value })} />
              <FieldError errors={errors} param={`layers[${i}].element`} />
            </div>
          ) : null}
          {layer.action === 'remove' ? <p className="text-xs text-muted-foreground">Removes the whole designated object, even outside the painted area.</p> : null}
        </fieldset>
      ))}
      <FieldError errors={errors} param="layers" />
    </div>
  );
}

function ModifyFields({ layer, index, update, errors }: { layer: LayerDraft; index: number; update: (patch: Partial<LayerDraft>) => void; errors: FieldErrors }) {
  const [picking, setPicking] = React.useState(false);
  return (
    <div className="grid min-w-0 gap-2">
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm" role="radiogroup" aria-label={`Modify layer ${index + 1} by`}>
        {(['color', 'material'] as const).map((by) => (
          <label key={by} className="flex items-center gap-1">
            <input type="radio" name={`layer-${index}-by`} checked={layer.by === by} onChange={() => update({ by })} />
            {by === 'color' ? 'Colour and finish' : 'Material'}
          </label>
        ))}
      </div>
      {layer.by === 'color' ? (
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1.5">
            <Label htmlFor={`layer-${index}-color`}>Colour</Label>
            <div className="flex items-center gap-2">
              <input type="color" aria-label={`Colour picker of layer ${index + 1}`} value={layer.color} onChange={(e) => update({ color: e.target.value.toUpperCase() })} className="h-9 w-12 rounded border" />
              <Input id={`layer-${index}-color`} className="w-28" value={layer.color} onChange={(e) => update({ color: e.target.value })} />
            </div>
          </div>
          <div className="grid min-w-0 flex-1 gap-1.5 sm:min-w-44 sm:flex-none">
            <Label htmlFor={`layer-${index}-finish`}>Finish</Label>
            <Select id={`layer-${index}-finish`} label={`Finish of layer ${index + 1}`} value={layer.finish} onValueChange={(v) => update({ finish: v as LayerDraft['finish'] })} options={FINISHES.map((f) => ({ value: f, label: f === 'default' ? 'default (keep the surface)' : f.replace('_', ' ') }))} />
          </div>
          <FieldError errors={errors} param={`layers[${index}].color`} />
          <FieldError errors={errors} param={`layers[${index}].finish`} />
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          {layer.material ? (
            <>
              {/* eslint-disable-next-line @next/next/no-img-element -- swatch served by /swatches */}
              <img src={`/swatches/${layer.material}`} alt="" className="size-10 rounded border" />
              <span className="text-sm">
                {/* A replayed layer knows only the id: it is not repeated as the name. */}
                {layer.materialName && layer.materialName !== layer.material ? `${layer.materialName} ` : null}
                <code className="text-xs text-muted-foreground">{layer.material}</code>
              </span>
            </>
          ) : (
            <span className="text-sm text-muted-foreground">No material chosen</span>
          )}
          <Button size="sm" variant="outline" onClick={() => setPicking(true)}>
            Choose a material
          </Button>
          <FieldError errors={errors} param={`layers[${index}].material`} />
          <MaterialPicker open={picking} onOpenChange={setPicking} onPick={(m) => update({ material: m.id, materialName: m.name })} />
        </div>
      )}
    </div>
  );
}

function MaterialPicker({ open, onOpenChange, onPick }: { open: boolean; onOpenChange: (open: boolean) => void; onPick: (m: { id: string; name: string }) => void }) {
  const trpc = useTRPC();
  const scope = useScopeInput();
  const [category, setCategory] = React.useState('all');
  const [search, setSearch] = React.useState('');
  const categories = useQuery(trpc.playground.materialCategories.queryOptions(scope, { enabled: open }));
  // The search asks the server once typing pauses; the last answer stays (dimmed) meanwhile.
  const [asked, setAsked] = React.useState('');
  React.useEffect(() => {
    const timer = setTimeout(() => setAsked(search.trim()), 250);
    return () => clearTimeout(timer);
  }, [search]);
  const materials = useQuery(
    trpc.playground.materials.queryOptions({ ...scope, category: category === 'all' ? undefined : category, search: asked || undefined }, { enabled: open, placeholderData: keepPreviousData }),
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Choose a material</DialogTitle>
          <DialogDescription>Materials of GET /v1/edit-materials, with their swatches.</DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap gap-2 sm:flex-nowrap">
          <Select label="Material category" value={category} onValueChange={setCategory} options={[{ value: 'all', label: 'All categories' }, ...(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))]} className="sm:w-56" />
          <Input aria-label="Search materials" placeholder="Search by name or category" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        {materials.isPending ? (
          <div role="status" aria-label="Loading materials" data-state="loading" data-testid="materials-loading" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {Array.from({ length: 8 }, (_, i) => (
              <Skeleton key={i} className="aspect-square w-full" />
            ))}
          </div>
        ) : materials.isError ? (
          <ErrorState error={materials.error} onRetry={() => void materials.refetch()} />
        ) : materials.data.data.length === 0 ? (
          <div role="status" data-testid="materials-no-match" className="flex flex-col items-start gap-2 rounded-md border border-dashed p-4 text-sm">
            <p className="font-medium">{asked ? `No material matches “${asked}”${category === 'all' ? '' : ' in this category'}.` : 'No material in this category.'}</p>
            <p className="text-muted-foreground">Names and categories are searched: try a shorter word{category === 'all' ? '' : ' or all categories'}.</p>
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                setSearch('');
                setCategory('all');
              }}
            >
              Show every material
            </Button>
          </div>
        ) : (
          <ul
            className={cn('grid max-h-[50vh] grid-cols-2 gap-2 overflow-y-auto sm:grid-cols-4', materials.isPlaceholderData && 'opacity-60')}
            aria-label="Materials"
            aria-busy={materials.isPlaceholderData}
          >
            {materials.data.data.map((m) => (
              <li key={m.id}>
                <button
                  type="button"
                  className="grid w-full gap-1 rounded-md border p-2 text-left text-xs hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  onClick={() => {
                    onPick(m);
                    onOpenChange(false);
                  }}
                >
                  {/* eslint-disable-next-line @next/next/no-img-element -- swatch served by /swatches */}
                  <img src={`/swatches/${m.id}`} alt="" loading="lazy" className="aspect-square w-full rounded" />
                  <span className="font-medium">{m.name}</span>
                  <span className="text-muted-foreground">{m.category}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
