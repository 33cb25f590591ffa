'use client';
import * as React from 'react';
import { labelOf, MASK_PALETTE, rectIsEmpty, type Label as PixelLabel, type MaskColor, type MaskHistory, type MaskRaster, type Point } from './mask-raster';
import { percent, TOOLS, zoomIn, zoomOut, type Tool } from './mask-tools';

/** Photo colours within this distance of the clicked pixel (per channel) join a region fill. */
const FILL_TOLERANCE = 28;

/** Keyboard cursor steps: a fiftieth of the side, a tenth with Shift. */
const STEP = 1 / 50;
const BIG_STEP = 1 / 10;

/**
 * The painter's state and operations on a raster kept by the caller (the playground's draft:
 * the mask outlives the painter): the tool, colour, brush and zoom; shapes being drawn; the
 * keyboard cursor and pen; undo and redo; and a sentence for the live region after each step.
 * `changed` redraws the canvas and tells the caller the painted colours.
 */
export function useMaskPainting({
  raster,
  history,
  imageUrl,
  canvasRef,
  scrollRef,
  changed,
  redraw,
}: {
  raster: MaskRaster;
  history: MaskHistory;
  imageUrl: string;
  canvasRef: React.RefObject<HTMLCanvasElement | null>;
  scrollRef: React.RefObject<HTMLDivElement | null>;
  changed: () => void;
  redraw: () => void;
}) {
  const photoPixels = React.useRef<Uint8ClampedArray | null>(null);
  const [tool, setTool] = React.useState<Tool>('brush');
  const [color, setColor] = React.useState<MaskColor>(MASK_PALETTE[0]);
  const [brushSize, setBrushSize] = React.useState(24);
  const [zoom, setZoom] = React.useState(1);
  const [polygon, setPolygon] = React.useState<Point[]>([]);
  const drag = React.useRef<{ last: Point; start: Point; scroll?: { left: number; top: number; x: number; y: number } } | null>(null);
  const [rectPreview, setRectPreview] = React.useState<{ a: Point; b: Point } | null>(null);
  const [cursor, setCursor] = React.useState<Point>(() => ({ x: raster.width / 2, y: raster.height / 2 }));
  const [penDown, setPenDown] = React.useState(false);
  const [corner, setCorner] = React.useState<Point | null>(null);
  const [announcement, setAnnouncement] = React.useState('');

  // The photo's colours at mask resolution, for region fill (unavailable for a cross-origin URL).
  React.useEffect(() => {
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
  }, [raster, imageUrl]);

  const label: PixelLabel = tool === 'eraser' ? 0 : labelOf(color);
  /** Brush size is in screen pixels at zoom 1; converted to mask pixels. */
  const radius = () => (brushSize / 2) * (raster.width / ((canvasRef.current?.getBoundingClientRect().width ?? raster.width) / zoom));

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
    // A rectangle is recorded when it is painted, on release (a click without a drag paints nothing).
    if (tool !== 'rect') history.record(raster);
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
      setRectPreview(null);
      const end = toMask(event);
      if (rectIsEmpty(d.start, end)) return;
      history.record(raster);
      raster.rect(d.start, end, label);
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
  /** Labels read from a mask PNG replace the painted ones (undoable). */
  function replaceLabels(labels: Uint8Array, name: string) {
    history.record(raster);
    raster.labels.set(labels);
    changed();
    setAnnouncement(`Mask loaded from ${name}.`);
  }

  function chooseTool(next: Tool) {
    setTool(next);
    setPenDown(false);
    setCorner(null);
    setRectPreview(null);
    setPolygon([]);
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

  function spaceWith(current: Tool) {
    switch (current) {
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
          setAnnouncement(`Pen down (${current === 'eraser' ? 'eraser' : color}): move with the arrows, Space to lift.`);
        }
        return;
      case 'rect':
        if (!corner) {
          setCorner(cursor);
          setRectPreview({ a: cursor, b: cursor });
          setAnnouncement('First corner set: move to the opposite corner, then Space.');
        } else if (rectIsEmpty(corner, cursor)) {
          // Both corners on one spot or one line: nothing painted, and the live region does not say otherwise.
          setCorner(null);
          setRectPreview(null);
          setAnnouncement('Nothing painted: the rectangle had no width or height. Space sets a first corner again.');
        } else {
          history.record(raster);
          raster.rect(corner, cursor, label);
          changed();
          setCorner(null);
          setRectPreview(null);
          setAnnouncement(`Rectangle painted in ${tool === 'eraser' ? 'eraser' : color}.`);
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

  /** The canvas by keyboard: a cursor, tools and colours. */
  function onCanvasKeyDown(event: React.KeyboardEvent<HTMLCanvasElement>) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const move = arrows[event.key];
    if (move) {
      event.preventDefault();
      if (tool === 'pan') {
        scrollRef.current?.scrollBy({ left: move[0] * 60, top: move[1] * 60 });
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
      spaceWith(tool);
      return;
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
    if (event.key === '+' || event.key === '=') setZoom(zoomIn);
    else if (event.key === '-') setZoom(zoomOut);
  }

  return {
    tool,
    chooseTool,
    color,
    setColor,
    brushSize,
    setBrushSize,
    zoom,
    setZoom,
    polygon,
    closePolygon,
    rectPreview,
    cursor,
    radius,
    announcement,
    setPenDown,
    undo,
    redo,
    clear,
    replaceLabels,
    pointer: { onPointerDown, onPointerMove, onPointerUp },
    onKeyDown,
    onCanvasKeyDown,
  };
}

export type MaskPainting = ReturnType<typeof useMaskPainting>;
