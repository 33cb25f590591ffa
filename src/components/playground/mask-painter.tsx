'use client';
import * as React from 'react';
import { Brush, Eraser, Hand, Lasso, PaintBucket, Redo2, Square, Trash2, Undo2, Upload, ZoomIn, ZoomOut } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { labelOf, MASK_PALETTE, MaskHistory, MaskRaster, maskSizeFor, maskSizeProblem, opaquePixels, type Label as PixelLabel, type MaskColor, type Point } from './mask-raster';

export type PaintedColor = ReturnType<MaskRaster['paintedColors']>[number];

export interface MaskPainterHandle {
  /** The mask as the PNG the server analyses (palette colours at full opacity, the rest transparent). */
  exportPng(): Promise<Blob>;
}

type Tool = 'brush' | 'eraser' | 'rect' | 'polygon' | 'fill' | 'pan';

const TOOLS: { id: Tool; label: string; key: string; icon: React.ComponentType<{ className?: string; 'aria-hidden'?: boolean }> }[] = [
  { id: 'brush', label: 'Brush', key: 'B', icon: Brush },
  { id: 'eraser', label: 'Eraser', key: 'E', icon: Eraser },
  { id: 'rect', label: 'Rectangle', key: 'R', icon: Square },
  { id: 'polygon', label: 'Polygon (click points, double-click or Enter to close)', key: 'P', icon: Lasso },
  { id: 'fill', label: 'Fill region', key: 'F', icon: PaintBucket },
  { id: 'pan', label: 'Pan', key: 'H', icon: Hand },
];

/** Photo colours within this distance of the clicked pixel (per channel) join a region fill. */
const FILL_TOLERANCE = 28;

/** Keyboard cursor steps: a fiftieth of the side, a tenth with Shift. */
const STEP = 1 / 50;
const BIG_STEP = 1 / 10;

function percent(value: number, of: number): number {
  return Math.round((value / of) * 100);
}

/**
 * The mask painter: a canvas over the photo at the photo's proportions (its natural size, which
 * the browser reports after EXIF orientation), painting only palette colours with hard edges
 * through mask-raster.ts. The parent reads painted colours through onChange and the PNG through
 * the handle.
 *
 * By keyboard, the canvas is one tab stop with a cursor: arrows move it (Shift: bigger steps),
 * Space paints with the current tool (brush and eraser: Space puts the pen down and up, arrows
 * draw; rectangle: Space sets a corner, then the opposite one; polygon: Space adds a point, Enter
 * closes; fill: Space fills), Escape cancels a shape, letters choose a tool (B E R P F H), 1–5 a
 * colour; Ctrl+Z / Ctrl+Shift+Z undo and redo anywhere in the painter. A live region says what
 * happened.
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
  const helpId = React.useId();
  const [tool, setTool] = React.useState<Tool>('brush');
  const [color, setColor] = React.useState<MaskColor>(MASK_PALETTE[0]);
  const [brushSize, setBrushSize] = React.useState(24);
  const [opacity, setOpacity] = React.useState(60);
  const [zoom, setZoom] = React.useState(1);
  const [polygon, setPolygon] = React.useState<Point[]>([]);
  const [, setRevision] = React.useState(0);
  const drag = React.useRef<{ last: Point; start: Point; scroll?: { left: number; top: number; x: number; y: number } } | null>(null);
  const [rectPreview, setRectPreview] = React.useState<{ a: Point; b: Point } | null>(null);
  // Keyboard painting: the cursor (mask pixels), the pen (brush/eraser) and a rectangle's first corner.
  const [cursor, setCursor] = React.useState<Point>(() => ({ x: size.width / 2, y: size.height / 2 }));
  const [focused, setFocused] = React.useState(false);
  const [penDown, setPenDown] = React.useState(false);
  const [corner, setCorner] = React.useState<Point | null>(null);
  const [announcement, setAnnouncement] = React.useState('');
  const [loadProblem, setLoadProblem] = React.useState<{ kind: 'error' | 'warning'; text: string } | null>(null);

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

  function fillAt(p: Point) {
    history.record(raster);
    const pixels = photoPixels.current;
    const similar = pixels
      ? (s: number, i: number) =>
          Math.abs((pixels[s * 4] ?? 0) - (pixels[i * 4] ?? 0)) <= FILL_TOLERANCE &&
          Math.abs((pixels[s * 4 + 1] ?? 0) - (pixels[i * 4 + 1] ?? 0)) <= FILL_TOLERANCE &&
          Math.abs((pixels[s * 4 + 2] ?? 0) - (pixels[i * 4 + 2] ?? 0)) <= FILL_TOLERANCE
      : undefined;
    raster.flood(p, label, similar);
    changed();
  }

  function onPointerDown(event: React.PointerEvent<HTMLCanvasElement>) {
    if (event.button !== 0) return;
    // The canvas takes the focus, so Ctrl+Z right after a stroke undoes it.
    event.currentTarget.focus({ preventScroll: true });
    const p = toMask(event);
    setCursor(p);
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
    if (tool === 'fill') {
      fillAt(p);
      return;
    }
    history.record(raster);
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
      setAnnouncement(`Polygon of ${polygon.length} points painted in ${tool === 'eraser' ? 'eraser' : color}.`);
    }
    setPolygon([]);
  }

  function undo() {
    if (history.undo(raster)) {
      changed();
      setAnnouncement('Undone.');
    }
  }
  function redo() {
    if (history.redo(raster)) {
      changed();
      setAnnouncement('Redone.');
    }
  }
  function clear() {
    history.record(raster);
    raster.labels.fill(0);
    changed();
    setAnnouncement('Mask cleared.');
  }

  function chooseTool(next: Tool) {
    setTool(next);
    setPenDown(false);
    setCorner(null);
    setRectPreview(null);
    setPolygon([]);
  }

  async function loadMask(file: File) {
    setLoadProblem(null);
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(file);
    } catch {
      setLoadProblem({ kind: 'error', text: `${file.name} could not be read as an image. The mask was not loaded.` });
      return;
    }
    // The server's rules, said before anything changes: a mask of the wrong size is not silently resampled away.
    const sizeProblem = maskSizeProblem(bitmap.width, bitmap.height, imageWidth, imageHeight);
    if (sizeProblem) {
      setLoadProblem({ kind: 'error', text: sizeProblem });
      return;
    }
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const c = canvas.getContext('2d');
    if (!c) return;
    c.drawImage(bitmap, 0, 0);
    const rgba = c.getImageData(0, 0, bitmap.width, bitmap.height).data;
    const { opaque, offPalette } = opaquePixels(rgba);
    const loaded = MaskRaster.fromRgba(rgba, bitmap.width, bitmap.height, raster.width, raster.height);
    if (loaded.paintedColors().length === 0) {
      setLoadProblem({
        kind: 'error',
        text:
          opaque === 0
            ? 'This PNG is transparent everywhere: nothing is painted. The mask was not loaded.'
            : `None of this PNG's opaque pixels is a palette colour (${MASK_PALETTE.join(', ')}, within 48 per channel). The mask was not loaded.`,
      });
      return;
    }
    history.record(raster);
    raster.labels.set(loaded.labels);
    changed();
    if (offPalette > 0) {
      setLoadProblem({ kind: 'warning', text: `${percent(offPalette, opaque)} % of the opaque pixels are not palette colours: they stay unpainted.` });
    }
    setAnnouncement(`Mask loaded from ${file.name}.`);
  }

  /** Shortcuts for the whole painter (canvas, tools, swatches): undo and redo where the user is. */
  function onKeyDown(event: React.KeyboardEvent) {
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && (key === 'z' || key === 'y')) {
      event.preventDefault();
      if (key === 'y' || event.shiftKey) redo();
      else undo();
    }
  }

  /** The canvas by keyboard: a cursor, tools and colours. */
  function onCanvasKeyDown(event: React.KeyboardEvent<HTMLCanvasElement>) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const move = arrows[event.key];
    if (move) {
      event.preventDefault();
      if (tool === 'pan') {
        const el = scrollRef.current;
        el?.scrollBy({ left: move[0] * 60, top: move[1] * 60 });
        return;
      }
      const step = event.shiftKey ? BIG_STEP : STEP;
      const next = {
        x: Math.min(raster.width - 0.5, Math.max(0.5, cursor.x + move[0] * step * raster.width)),
        y: Math.min(raster.height - 0.5, Math.max(0.5, cursor.y + move[1] * step * raster.height)),
      };
      if (penDown && (tool === 'brush' || tool === 'eraser')) {
        raster.stroke(cursor, next, radius(), label);
        changed();
      }
      setCursor(next);
      if (corner) setRectPreview({ a: corner, b: next });
      setAnnouncement(`Cursor at ${percent(next.x, raster.width)} % across, ${percent(next.y, raster.height)} % down${penDown ? ', painting' : ''}.`);
      return;
    }
    if (event.key === ' ' || (event.key === 'Enter' && tool !== 'polygon')) {
      event.preventDefault();
      switch (tool) {
        case 'brush':
        case 'eraser':
          if (penDown) {
            setPenDown(false);
            setAnnouncement('Pen up.');
          } else {
            history.record(raster);
            raster.disc(cursor.x, cursor.y, radius(), label);
            changed();
            setPenDown(true);
            setAnnouncement(`Pen down (${tool === 'eraser' ? 'eraser' : color}): move with the arrows, Space to lift.`);
          }
          return;
        case 'rect':
          if (!corner) {
            setCorner(cursor);
            setRectPreview({ a: cursor, b: cursor });
            setAnnouncement('First corner set: move to the opposite corner, then Space.');
          } else {
            history.record(raster);
            raster.rect(corner, cursor, label);
            changed();
            setCorner(null);
            setRectPreview(null);
            setAnnouncement(`Rectangle painted in ${color}.`);
          }
          return;
        case 'polygon':
          setPolygon((points) => [...points, cursor]);
          setAnnouncement(`Point ${polygon.length + 1} added${polygon.length + 1 >= 3 ? ': Enter closes the polygon' : ''}.`);
          return;
        case 'fill':
          fillAt(cursor);
          setAnnouncement(`Region filled with ${color}.`);
          return;
        case 'pan':
          return;
      }
    }
    if (event.key === 'Enter' && tool === 'polygon') {
      event.preventDefault();
      closePolygon();
      return;
    }
    if (event.key === 'Escape') {
      if (polygon.length > 0 || corner || penDown) {
        event.preventDefault();
        event.stopPropagation();
        setPolygon([]);
        setCorner(null);
        setRectPreview(null);
        setPenDown(false);
        setAnnouncement('Shape canceled.');
      }
      return;
    }
    const shortcut = TOOLS.find((t) => t.key.toLowerCase() === event.key.toLowerCase());
    if (shortcut) {
      event.preventDefault();
      chooseTool(shortcut.id);
      setAnnouncement(`${shortcut.label} tool.`);
      return;
    }
    const swatch = MASK_PALETTE[Number(event.key) - 1];
    if (/^[1-5]$/.test(event.key) && swatch) {
      event.preventDefault();
      setColor(swatch);
      setAnnouncement(`Colour ${swatch}.`);
      return;
    }
    if (event.key === '+' || event.key === '=') setZoom((z) => Math.min(8, z * 1.5));
    else if (event.key === '-') setZoom((z) => Math.max(1, z / 1.5));
  }

  return (
    <div className="grid min-w-0 gap-3" onKeyDown={onKeyDown} data-testid="mask-painter">
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Mask tools">
        {TOOLS.map((t) => (
          <Button
            key={t.id}
            size="icon"
            variant={tool === t.id ? 'default' : 'outline'}
            aria-label={t.label}
            aria-keyshortcuts={t.key}
            aria-pressed={tool === t.id}
            title={`${t.label} (${t.key})`}
            onClick={() => chooseTool(t.id)}
          >
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
        <label className="inline-flex cursor-pointer items-center gap-1 rounded-md border px-2 py-1.5 text-xs focus-within:ring-2 focus-within:ring-ring">
          <Upload className="size-4" aria-hidden /> Start from a mask PNG
          <input
            type="file"
            accept="image/png"
            className="sr-only"
            aria-label="Start from a mask PNG"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void loadMask(file);
              e.target.value = ''; // the same file again fires a change
            }}
          />
        </label>
      </div>
      {loadProblem ? (
        <p role="alert" data-testid="mask-load-problem" className={cn('text-sm font-medium', loadProblem.kind === 'error' ? 'text-destructive' : 'text-foreground')}>
          {loadProblem.text}
        </p>
      ) : null}
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
          <input type="range" min={10} max={100} value={opacity} onChange={(e) => setOpacity(Number(e.target.value))} aria-valuetext={`${opacity}%`} className="w-28" />
        </label>
        {tool === 'polygon' ? (
          <Button size="sm" variant="secondary" disabled={polygon.length < 3} onClick={closePolygon}>
            Close polygon ({polygon.length} points)
          </Button>
        ) : null}
      </div>
      <div ref={scrollRef} className="max-h-[70vh] max-w-full overflow-auto rounded-md border bg-muted">
        <div className="relative" style={{ width: `${zoom * 100}%`, aspectRatio: `${raster.width} / ${raster.height}` }}>
          {/* eslint-disable-next-line @next/next/no-img-element -- the user's own photo, any origin */}
          <img src={imageUrl} alt="The photo to mask" className="absolute inset-0 size-full select-none" draggable={false} />
          <canvas
            ref={canvasRef}
            width={raster.width}
            height={raster.height}
            data-testid="mask-canvas"
            tabIndex={0}
            role="application"
            aria-roledescription="mask painter"
            aria-label={`Mask canvas, ${TOOLS.find((t) => t.id === tool)?.label ?? tool} in ${color}`}
            aria-describedby={helpId}
            className={cn('absolute inset-0 size-full touch-none focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-ring', tool === 'pan' ? 'cursor-grab' : 'cursor-crosshair')}
            style={{ opacity: opacity / 100, imageRendering: 'pixelated' }}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onDoubleClick={() => tool === 'polygon' && closePolygon()}
            onKeyDown={onCanvasKeyDown}
            onFocus={() => setFocused(true)}
            onBlur={() => {
              setFocused(false);
              setPenDown(false);
            }}
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
            {focused ? (
              <g data-testid="mask-cursor" stroke="#000" strokeWidth={3} vectorEffect="non-scaling-stroke">
                <circle cx={cursor.x} cy={cursor.y} r={tool === 'brush' || tool === 'eraser' ? radius() : raster.width / 100} fill="none" stroke="#fff" strokeWidth={3} vectorEffect="non-scaling-stroke" />
                <circle cx={cursor.x} cy={cursor.y} r={tool === 'brush' || tool === 'eraser' ? radius() : raster.width / 100} fill="none" strokeWidth={1.5} vectorEffect="non-scaling-stroke" />
              </g>
            ) : null}
          </svg>
        </div>
      </div>
      <p id={helpId} className="text-xs text-muted-foreground">
        Mask {raster.width}×{raster.height} px for a {imageWidth}×{imageHeight} photo (same proportions). One colour per layer; the exported PNG holds only these colours, with hard edges. By
        keyboard: focus the canvas, move with the arrows (Shift: bigger steps), Space paints (brush: pen down and up; rectangle: one corner, then the other; polygon: a point, Enter closes;
        fill: the region), Escape cancels; B E R P F H choose a tool, 1–5 a colour, Ctrl+Z undoes.
      </p>
      <p className="sr-only" role="status" aria-live="polite" data-testid="mask-announcement">
        {announcement}
      </p>
    </div>
  );
});
