'use client';
import * as React from 'react';
import { Brush, Eraser, Hand, Lasso, PaintBucket, Redo2, Square, Trash2, Undo2, Upload, ZoomIn, ZoomOut } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { cn } from '@/components/ui/cn';
import { labelOf, MASK_PALETTE, MaskHistory, MaskRaster, maskSizeFor, type Label as PixelLabel, type MaskColor, type Point } from './mask-raster';

export type PaintedColor = ReturnType<MaskRaster['paintedColors']>[number];

export interface MaskPainterHandle {
  /** The mask as the PNG the server analyses (palette colours at full opacity, the rest transparent). */
  exportPng(): Promise<Blob>;
}

type Tool = 'brush' | 'eraser' | 'rect' | 'polygon' | 'fill' | 'pan';

const TOOLS: { id: Tool; label: string; icon: React.ComponentType<{ className?: string; 'aria-hidden'?: boolean }> }[] = [
  { id: 'brush', label: 'Brush', icon: Brush },
  { id: 'eraser', label: 'Eraser', icon: Eraser },
  { id: 'rect', label: 'Rectangle', icon: Square },
  { id: 'polygon', label: 'Polygon (click points, double-click to close)', icon: Lasso },
  { id: 'fill', label: 'Fill region', icon: PaintBucket },
  { id: 'pan', label: 'Pan', icon: Hand },
];

/** Photo colours within this distance of the clicked pixel (per channel) join a region fill. */
const FILL_TOLERANCE = 28;

/**
 * The mask painter: a canvas over the photo at the photo's proportions (its natural size, which
 * the browser reports after EXIF orientation), painting only palette colours with hard edges
 * through mask-raster.ts. The parent reads painted colours through onChange and the PNG through
 * the handle.
 */
export const MaskPainter = React.forwardRef<MaskPainterHandle, { imageUrl: string; imageWidth: number; imageHeight: number; onChange: (painted: PaintedColor[]) => void }>(function MaskPainter(
  { imageUrl, imageWidth, imageHeight, onChange },
  ref,
) {
  const size = React.useMemo(() => maskSizeFor(imageWidth, imageHeight), [imageWidth, imageHeight]);
  const raster = React.useMemo(() => new MaskRaster(size.width, size.height), [size]);
  const history = React.useMemo(() => new MaskHistory(), [raster]); // eslint-disable-line react-hooks/exhaustive-deps
  const canvasRef = React.useRef<HTMLCanvasElement>(null);
  const scrollRef = React.useRef<HTMLDivElement>(null);
  const photoPixels = React.useRef<Uint8ClampedArray | null>(null);
  const [tool, setTool] = React.useState<Tool>('brush');
  const [color, setColor] = React.useState<MaskColor>(MASK_PALETTE[0]);
  const [brushSize, setBrushSize] = React.useState(24);
  const [opacity, setOpacity] = React.useState(60);
  const [zoom, setZoom] = React.useState(1);
  const [polygon, setPolygon] = React.useState<Point[]>([]);
  const [, setRevision] = React.useState(0);
  const drag = React.useRef<{ last: Point; start: Point; scroll?: { left: number; top: number; x: number; y: number } } | null>(null);
  const [rectPreview, setRectPreview] = React.useState<{ a: Point; b: Point } | null>(null);

  const redraw = React.useCallback(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    context.putImageData(new ImageData(raster.toRgba(), raster.width, raster.height), 0, 0);
  }, [raster]);

  const changed = React.useCallback(() => {
    redraw();
    setRevision((r) => r + 1);
    onChange(raster.paintedColors());
  }, [redraw, onChange, raster]);

  React.useEffect(() => {
    changed();
    // The photo's colours at mask resolution, for region fill (unavailable for a cross-origin URL).
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => {
      try {
        const off = document.createElement('canvas');
        off.width = raster.width;
        off.height = raster.height;
        const c = off.getContext('2d');
        if (!c) return;
        c.drawImage(img, 0, 0, raster.width, raster.height);
        photoPixels.current = c.getImageData(0, 0, raster.width, raster.height).data;
      } catch {
        photoPixels.current = null;
      }
    };
    img.src = imageUrl;
  }, [raster, imageUrl]); // eslint-disable-line react-hooks/exhaustive-deps

  React.useImperativeHandle(ref, () => ({
    exportPng: () =>
      new Promise<Blob>((resolve, reject) => {
        const canvas = document.createElement('canvas');
        canvas.width = raster.width;
        canvas.height = raster.height;
        canvas.getContext('2d')?.putImageData(new ImageData(raster.toRgba(), raster.width, raster.height), 0, 0);
        canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('mask export failed'))), 'image/png');
      }),
  }));

  const label: PixelLabel = tool === 'eraser' ? 0 : labelOf(color);
  /** Brush size is in screen pixels at zoom 1; converted to mask pixels. */
  const displayWidth = () => (canvasRef.current?.getBoundingClientRect().width ?? raster.width) / zoom;
  const radius = () => (brushSize / 2) * (raster.width / displayWidth());

  function toMask(event: React.PointerEvent | React.MouseEvent): Point {
    const rect = (canvasRef.current as HTMLCanvasElement).getBoundingClientRect();
    return { x: ((event.clientX - rect.left) * raster.width) / rect.width, y: ((event.clientY - rect.top) * raster.height) / rect.height };
  }

  function onPointerDown(event: React.PointerEvent<HTMLCanvasElement>) {
    if (event.button !== 0) return;
    const p = toMask(event);
    if (tool === 'polygon') {
      setPolygon((points) => [...points, p]);
      return;
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    if (tool === 'pan') {
      const el = scrollRef.current as HTMLDivElement;
      drag.current = { last: p, start: p, scroll: { left: el.scrollLeft, top: el.scrollTop, x: event.clientX, y: event.clientY } };
      return;
    }
    history.record(raster);
    if (tool === 'fill') {
      const pixels = photoPixels.current;
      const similar = pixels
        ? (s: number, i: number) =>
            Math.abs((pixels[s * 4] ?? 0) - (pixels[i * 4] ?? 0)) <= FILL_TOLERANCE &&
            Math.abs((pixels[s * 4 + 1] ?? 0) - (pixels[i * 4 + 1] ?? 0)) <= FILL_TOLERANCE &&
            Math.abs((pixels[s * 4 + 2] ?? 0) - (pixels[i * 4 + 2] ?? 0)) <= FILL_TOLERANCE
        : undefined;
      raster.flood(p, label, similar);
      changed();
      return;
    }
    drag.current = { last: p, start: p };
    if (tool === 'brush' || tool === 'eraser') {
      raster.disc(p.x, p.y, radius(), label);
      redraw();
    }
  }

  function onPointerMove(event: React.PointerEvent<HTMLCanvasElement>) {
    const d = drag.current;
    if (!d) return;
    if (d.scroll) {
      const el = scrollRef.current as HTMLDivElement;
      el.scrollLeft = d.scroll.left - (event.clientX - d.scroll.x);
      el.scrollTop = d.scroll.top - (event.clientY - d.scroll.y);
      return;
    }
    const p = toMask(event);
    if (tool === 'brush' || tool === 'eraser') {
      raster.stroke(d.last, p, radius(), label);
      d.last = p;
      redraw();
    } else if (tool === 'rect') {
      setRectPreview({ a: d.start, b: p });
    }
  }

  function onPointerUp(event: React.PointerEvent<HTMLCanvasElement>) {
    const d = drag.current;
    drag.current = null;
    if (!d || d.scroll) return;
    if (tool === 'rect') {
      raster.rect(d.start, toMask(event), label);
      setRectPreview(null);
    }
    changed();
  }

  function closePolygon() {
    if (polygon.length >= 3) {
      history.record(raster);
      raster.polygon(polygon, label);
      changed();
    }
    setPolygon([]);
  }

  function undo() {
    if (history.undo(raster)) changed();
  }
  function redo() {
    if (history.redo(raster)) changed();
  }
  function clear() {
    history.record(raster);
    raster.labels.fill(0);
    changed();
  }

  async function loadMask(file: File) {
    const bitmap = await createImageBitmap(file);
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const c = canvas.getContext('2d');
    if (!c) return;
    c.drawImage(bitmap, 0, 0);
    const loaded = MaskRaster.fromRgba(c.getImageData(0, 0, bitmap.width, bitmap.height).data, bitmap.width, bitmap.height, raster.width, raster.height);
    history.record(raster);
    raster.labels.set(loaded.labels);
    changed();
  }

  function onKeyDown(event: React.KeyboardEvent) {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') {
      event.preventDefault();
      if (event.shiftKey) redo();
      else undo();
    } else if (event.key === 'Enter' && tool === 'polygon') closePolygon();
    else if (event.key === 'Escape') setPolygon([]);
  }

  return (
    <div className="grid gap-3" onKeyDown={onKeyDown} data-testid="mask-painter">
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Mask tools">
        {TOOLS.map((t) => (
          <Button key={t.id} size="icon" variant={tool === t.id ? 'default' : 'outline'} aria-label={t.label} aria-pressed={tool === t.id} title={t.label} onClick={() => setTool(t.id)}>
            <t.icon aria-hidden />
          </Button>
        ))}
        <span className="mx-1 h-6 w-px bg-border" aria-hidden />
        <Button size="icon" variant="outline" aria-label="Undo" title="Undo (Ctrl+Z)" disabled={!history.canUndo} onClick={undo}>
          <Undo2 aria-hidden />
        </Button>
        <Button size="icon" variant="outline" aria-label="Redo" title="Redo (Ctrl+Shift+Z)" disabled={!history.canRedo} onClick={redo}>
          <Redo2 aria-hidden />
        </Button>
        <Button size="icon" variant="outline" aria-label="Clear the mask" title="Clear" onClick={clear}>
          <Trash2 aria-hidden />
        </Button>
        <span className="mx-1 h-6 w-px bg-border" aria-hidden />
        <Button size="icon" variant="outline" aria-label="Zoom out" disabled={zoom <= 1} onClick={() => setZoom((z) => Math.max(1, z / 1.5))}>
          <ZoomOut aria-hidden />
        </Button>
        <span className="w-12 text-center text-xs tabular-nums" aria-live="polite">
          {Math.round(zoom * 100)}%
        </span>
        <Button size="icon" variant="outline" aria-label="Zoom in" disabled={zoom >= 8} onClick={() => setZoom((z) => Math.min(8, z * 1.5))}>
          <ZoomIn aria-hidden />
        </Button>
        <span className="mx-1 h-6 w-px bg-border" aria-hidden />
        <Label className="inline-flex cursor-pointer items-center gap-1 rounded-md border px-2 py-1.5 text-xs">
          <Upload className="size-4" aria-hidden /> Start from a mask PNG
          <input type="file" accept="image/png" className="sr-only" onChange={(e) => e.target.files?.[0] && void loadMask(e.target.files[0])} />
        </Label>
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <div className="flex items-center gap-1" role="radiogroup" aria-label="Mask colour">
          {MASK_PALETTE.map((c) => (
            <button
              key={c}
              type="button"
              role="radio"
              aria-checked={color === c}
              aria-label={`Colour ${c}`}
              title={c}
              onClick={() => setColor(c)}
              className={cn('size-7 rounded-full border-2 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none', color === c ? 'border-foreground' : 'border-transparent')}
              style={{ backgroundColor: c }}
            />
          ))}
        </div>
        <label className="flex items-center gap-2 text-sm">
          Brush size
          <input type="range" min={2} max={120} value={brushSize} onChange={(e) => setBrushSize(Number(e.target.value))} aria-valuetext={`${brushSize} pixels`} />
        </label>
        <label className="flex items-center gap-2 text-sm">
          Overlay opacity
          <input type="range" min={10} max={100} value={opacity} onChange={(e) => setOpacity(Number(e.target.value))} aria-valuetext={`${opacity}%`} />
        </label>
        {tool === 'polygon' ? (
          <Button size="sm" variant="secondary" disabled={polygon.length < 3} onClick={closePolygon}>
            Close polygon ({polygon.length} points)
          </Button>
        ) : null}
      </div>
      <div ref={scrollRef} className="max-h-[70vh] overflow-auto rounded-md border bg-muted">
        <div className="relative" style={{ width: `${zoom * 100}%`, aspectRatio: `${raster.width} / ${raster.height}` }}>
          {/* eslint-disable-next-line @next/next/no-img-element -- the user's own photo, any origin */}
          <img src={imageUrl} alt="The photo to mask" className="absolute inset-0 size-full select-none" draggable={false} />
          <canvas
            ref={canvasRef}
            width={raster.width}
            height={raster.height}
            data-testid="mask-canvas"
            aria-label="Mask canvas: paint the areas to change"
            role="img"
            className={cn('absolute inset-0 size-full touch-none', tool === 'pan' ? 'cursor-grab' : 'cursor-crosshair')}
            style={{ opacity: opacity / 100, imageRendering: 'pixelated' }}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onDoubleClick={() => tool === 'polygon' && closePolygon()}
          />
          <svg className="pointer-events-none absolute inset-0 size-full" viewBox={`0 0 ${raster.width} ${raster.height}`} preserveAspectRatio="none" aria-hidden>
            {rectPreview ? (
              <rect
                x={Math.min(rectPreview.a.x, rectPreview.b.x)}
                y={Math.min(rectPreview.a.y, rectPreview.b.y)}
                width={Math.abs(rectPreview.b.x - rectPreview.a.x)}
                height={Math.abs(rectPreview.b.y - rectPreview.a.y)}
                fill={tool === 'eraser' ? 'none' : color}
                fillOpacity={0.4}
                stroke="currentColor"
                vectorEffect="non-scaling-stroke"
              />
            ) : null}
            {polygon.length > 0 ? <polyline points={polygon.map((p) => `${p.x},${p.y}`).join(' ')} fill={color} fillOpacity={0.3} stroke={color} strokeWidth={2} vectorEffect="non-scaling-stroke" /> : null}
          </svg>
        </div>
      </div>
      <p className="text-xs text-muted-foreground">
        Mask {raster.width}×{raster.height} px for a {imageWidth}×{imageHeight} photo (same proportions). One colour per layer; the exported PNG holds only these colours, with hard edges.
      </p>
    </div>
  );
});
