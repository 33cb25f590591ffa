'use client';
import * as React from 'react';
import { cn } from '@/components/ui/cn';
import { loadMaskFile } from './load-mask';
import type { MaskHistory, MaskRaster } from './mask-raster';
import { MaskOptions, MaskToolbar } from './mask-toolbar';
import { TOOLS } from './mask-tools';
import { useMaskPainting } from './use-mask-painting';

export type PaintedColor = ReturnType<MaskRaster['paintedColors']>[number];

export interface MaskPainterHandle {
  /** The mask as the PNG the server analyses (palette colours at full opacity, the rest transparent). */
  exportPng(): Promise<Blob>;
}

/**
 * The mask painter: a canvas over the photo at the photo's proportions (its natural size, which
 * the browser reports after EXIF orientation), painting only palette colours with hard edges
 * through mask-raster.ts. The raster and its history belong to the caller (the playground's
 * draft keeps them while the member visits other screens); the caller reads painted colours
 * through onChange and the PNG through the handle.
 *
 * By keyboard, the canvas is one tab stop with a cursor: arrows move it (Shift: bigger steps),
 * Space paints with the current tool (brush and eraser: Space puts the pen down and up, arrows
 * draw; rectangle: Space sets a corner, then the opposite one; polygon: Space adds a point, Enter
 * closes; fill: Space fills), Escape cancels a shape, letters choose a tool (B E R P F H), 1–5 a
 * colour; Ctrl+Z / Ctrl+Shift+Z undo and redo anywhere in the painter. A live region says what
 * happened.
 */
export const MaskPainter = React.forwardRef<
  MaskPainterHandle,
  { imageUrl: string; imageWidth: number; imageHeight: number; raster: MaskRaster; history: MaskHistory; onChange: (painted: PaintedColor[]) => void }
>(function MaskPainter({ imageUrl, imageWidth, imageHeight, raster, history, onChange }, ref) {
  const canvasRef = React.useRef<HTMLCanvasElement>(null);
  const scrollRef = React.useRef<HTMLDivElement>(null);
  const helpId = React.useId();
  const [, setRevision] = React.useState(0);
  const [opacity, setOpacity] = React.useState(60);
  const [focused, setFocused] = React.useState(false);
  const [loadProblem, setLoadProblem] = React.useState<{ kind: 'error' | 'warning'; text: string } | null>(null);

  const redraw = React.useCallback(() => {
    const context = canvasRef.current?.getContext('2d');
    if (context) context.putImageData(new ImageData(raster.toRgba(), raster.width, raster.height), 0, 0);
  }, [raster]);
  const changed = React.useCallback(() => {
    redraw();
    setRevision((r) => r + 1);
    onChange(raster.paintedColors());
  }, [redraw, onChange, raster]);
  // A kept mask (Back to the playground) is drawn and reported as it is.
  React.useEffect(() => changed(), [raster]); // eslint-disable-line react-hooks/exhaustive-deps

  const painting = useMaskPainting({ raster, history, imageUrl, canvasRef, scrollRef, changed, redraw });
  const { tool, color, zoom, polygon, rectPreview, cursor, radius } = painting;

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

  async function loadMask(file: File) {
    setLoadProblem(null);
    const loaded = await loadMaskFile(file, { width: imageWidth, height: imageHeight }, raster);
    if (!loaded.ok) {
      setLoadProblem({ kind: 'error', text: loaded.problem });
      return;
    }
    painting.replaceLabels(loaded.labels, file.name);
    if (loaded.warning) setLoadProblem({ kind: 'warning', text: loaded.warning });
  }

  const cursorRadius = tool === 'brush' || tool === 'eraser' ? radius() : raster.width / 100;
  return (
    <div className="grid min-w-0 gap-3" onKeyDown={painting.onKeyDown} data-testid="mask-painter">
      <MaskToolbar painting={painting} history={history} onMaskFile={(file) => void loadMask(file)} />
      {loadProblem ? (
        <p role="alert" data-testid="mask-load-problem" className={cn('text-sm font-medium', loadProblem.kind === 'error' ? 'text-destructive' : 'text-foreground')}>
          {loadProblem.text}
        </p>
      ) : null}
      <MaskOptions painting={painting} opacity={opacity} onOpacity={setOpacity} />
      {/* The focus ring is the frame's: the canvas's own outline was cut by the scrolling frame and faded by the overlay's opacity. */}
      <div
        ref={scrollRef}
        data-testid="mask-frame"
        className="max-h-[70vh] max-w-full overflow-auto rounded-md border bg-muted has-[canvas:focus-visible]:outline-3 has-[canvas:focus-visible]:outline-offset-2 has-[canvas:focus-visible]:outline-ring"
      >
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
            className={cn('absolute inset-0 size-full touch-none focus-visible:outline-none', tool === 'pan' ? 'cursor-grab' : 'cursor-crosshair')}
            style={{ opacity: opacity / 100, imageRendering: 'pixelated' }}
            {...painting.pointer}
            onDoubleClick={() => tool === 'polygon' && painting.closePolygon()}
            onKeyDown={painting.onCanvasKeyDown}
            onFocus={() => setFocused(true)}
            onBlur={() => {
              setFocused(false);
              painting.setPenDown(false);
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
                <circle cx={cursor.x} cy={cursor.y} r={cursorRadius} fill="none" stroke="#fff" strokeWidth={3} vectorEffect="non-scaling-stroke" />
                <circle cx={cursor.x} cy={cursor.y} r={cursorRadius} fill="none" strokeWidth={1.5} vectorEffect="non-scaling-stroke" />
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
        {painting.announcement}
      </p>
    </div>
  );
});
