'use client';
import * as React from 'react';
import { Redo2, Trash2, Undo2, Upload, ZoomIn, ZoomOut } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { MASK_PALETTE, type MaskColor, type MaskHistory } from './mask-raster';
import { MAX_ZOOM, TOOLS, zoomIn, zoomOut } from './mask-tools';
import type { MaskPainting } from './use-mask-painting';

/** Tools, undo and redo, clear, zoom, and starting from a mask PNG. */
export function MaskToolbar({ painting, history, onMaskFile }: { painting: MaskPainting; history: MaskHistory; onMaskFile: (file: File) => void }) {
  const { tool, chooseTool, zoom, setZoom, undo, redo, clear } = painting;
  return (
    <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Mask tools">
      {TOOLS.map((t) => (
        <Button key={t.id} size="icon" variant={tool === t.id ? 'default' : 'outline'} aria-label={t.label} aria-keyshortcuts={t.key} aria-pressed={tool === t.id} title={`${t.label} (${t.key})`} onClick={() => chooseTool(t.id)}>
          <t.icon aria-hidden />
        </Button>
      ))}
      <span className="mx-1 h-6 w-px bg-border" aria-hidden />
      <Button size="icon" variant="outline" aria-label="Undo" aria-keyshortcuts="Control+Z" title="Undo (Ctrl+Z)" disabled={!history.canUndo} onClick={undo}>
        <Undo2 aria-hidden />
      </Button>
      <Button size="icon" variant="outline" aria-label="Redo" aria-keyshortcuts="Control+Shift+Z" title="Redo (Ctrl+Shift+Z)" disabled={!history.canRedo} onClick={redo}>
        <Redo2 aria-hidden />
      </Button>
      <Button size="icon" variant="outline" aria-label="Clear the mask" title="Clear" onClick={clear}>
        <Trash2 aria-hidden />
      </Button>
      <span className="mx-1 h-6 w-px bg-border" aria-hidden />
      <Button size="icon" variant="outline" aria-label="Zoom out" disabled={zoom <= 1} onClick={() => setZoom(zoomOut)}>
        <ZoomOut aria-hidden />
      </Button>
      <span className="w-12 text-center text-xs tabular-nums" aria-live="polite">
        {Math.round(zoom * 100)}%
      </span>
      <Button size="icon" variant="outline" aria-label="Zoom in" disabled={zoom >= MAX_ZOOM} onClick={() => setZoom(zoomIn)}>
        <ZoomIn aria-hidden />
      </Button>
      <span className="mx-1 h-6 w-px bg-border" aria-hidden />
      <label className="inline-flex cursor-pointer items-center gap-1 rounded-md border px-2 py-1.5 text-xs focus-within:ring-2 focus-within:ring-ring">
        <Upload className="size-4" aria-hidden /> Start from a mask PNG
        <input
          type="file"
          accept="image/png"
          className="sr-only"
          aria-label="Start from a mask PNG"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) onMaskFile(file);
            e.target.value = ''; // the same file again fires a change
          }}
        />
      </label>
    </div>
  );
}

/** The colour swatches (1–5), brush size, overlay opacity, and closing a polygon. */
export function MaskOptions({ painting, opacity, onOpacity }: { painting: MaskPainting; opacity: number; onOpacity: (opacity: number) => void }) {
  const { color, setColor, brushSize, setBrushSize, tool, polygon, closePolygon } = painting;
  return (
    <div className="flex flex-wrap items-center gap-4">
      <RadioGroup aria-label="Mask colour" value={color} onValueChange={(v) => setColor(v as MaskColor)} orientation="horizontal" loop className="items-center gap-1">
        {MASK_PALETTE.map((c, i) => (
          <RadioGroupItem
            key={c}
            value={c}
            onFocus={() => setColor(c)}
            aria-label={`Colour ${c}`}
            aria-keyshortcuts={String(i + 1)}
            title={`${c} (${i + 1})`}
            className={cn('size-7 rounded-full border-2', color === c ? 'border-foreground' : 'border-transparent')}
            style={{ backgroundColor: c }}
          />
        ))}
      </RadioGroup>
      <label className="flex items-center gap-2 text-sm">
        Brush size
        <input type="range" min={2} max={120} value={brushSize} onChange={(e) => setBrushSize(Number(e.target.value))} aria-valuetext={`${brushSize} pixels`} className="w-28" />
      </label>
      <label className="flex items-center gap-2 text-sm">
        Overlay opacity
        <input type="range" min={10} max={100} value={opacity} onChange={(e) => onOpacity(Number(e.target.value))} aria-valuetext={`${opacity}%`} className="w-28" />
      </label>
      {tool === 'polygon' ? (
        <Button size="sm" variant="secondary" disabled={polygon.length < 3} onClick={closePolygon}>
          Close polygon ({polygon.length} points)
        </Button>
      ) : null}
    </div>
  );
}
