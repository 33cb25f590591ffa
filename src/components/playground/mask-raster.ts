import { MASK_CHANNEL_TOLERANCE, MASK_MIN_ALPHA, MASK_MIN_COVERAGE, MASK_MIN_LONG_SIDE, MASK_PALETTE, MASK_PROPORTION_TOLERANCE, type MaskColor } from '@/shared/images/mask-palette';

/**
 * The mask painter's pixels, framework-free (unit-tested in Node against the server's mask
 * analysis). A mask is one label per pixel: 0 = unpainted, i + 1 = MASK_PALETTE[i]. Every
 * drawing routine sets whole pixels (no anti-aliasing), so the exported PNG holds only the
 * five palette colours at full opacity and transparent pixels: exactly what mask analysis reads.
 */
export type Label = 0 | 1 | 2 | 3 | 4 | 5;
export interface Point {
  x: number;
  y: number;
}

/** Painter resolution: the image's proportions, long side capped (at least 512 or the image's own). */
export const MASK_MAX_LONG_SIDE = 2048;

export function maskSizeFor(imageWidth: number, imageHeight: number): { width: number; height: number } {
  const long = Math.max(imageWidth, imageHeight);
  const target = Math.min(long, MASK_MAX_LONG_SIDE);
  const scale = target / long;
  return { width: Math.max(1, Math.round(imageWidth * scale)), height: Math.max(1, Math.round(imageHeight * scale)) };
}

export function labelOf(color: MaskColor): Label {
  return (MASK_PALETTE.indexOf(color) + 1) as Label;
}

function rgbOf(hex: string): [number, number, number] {
  return [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)];
}

export class MaskRaster {
  readonly labels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    labels?: Uint8Array,
  ) {
    this.labels = labels ?? new Uint8Array(width * height);
  }

  clone(): MaskRaster {
    return new MaskRaster(this.width, this.height, this.labels.slice());
  }

  private set(x: number, y: number, label: Label): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    this.labels[y * this.width + x] = label;
  }

  /** A filled disc of radius r (pixel centres within r), label 0 erases. */
  disc(cx: number, cy: number, radius: number, label: Label): void {
    const r = Math.max(0.5, radius);
    const x0 = Math.floor(cx - r);
    const x1 = Math.ceil(cx + r);
    const y0 = Math.floor(cy - r);
    const y1 = Math.ceil(cy + r);
    const r2 = r * r;
    for (let y = Math.max(0, y0); y <= Math.min(this.height - 1, y1); y++) {
      const dy = y + 0.5 - cy;
      for (let x = Math.max(0, x0); x <= Math.min(this.width - 1, x1); x++) {
        const dx = x + 0.5 - cx;
        if (dx * dx + dy * dy <= r2) this.labels[y * this.width + x] = label;
      }
    }
  }

  /** A brush (or eraser) stroke segment: discs every half radius along the line. */
  stroke(from: Point, to: Point, radius: number, label: Label): void {
    const length = Math.hypot(to.x - from.x, to.y - from.y);
    const steps = Math.max(1, Math.ceil(length / Math.max(0.5, radius / 2)));
    for (let i = 0; i <= steps; i++) {
      const t = i / steps;
      this.disc(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t, radius, label);
    }
  }

  /** Axis-aligned rectangle between two corners (inclusive of the pixels they fall in). */
  rect(a: Point, b: Point, label: Label): void {
    if (rectIsEmpty(a, b)) return;
    const x0 = Math.max(0, Math.floor(Math.min(a.x, b.x)));
    const x1 = Math.min(this.width - 1, Math.floor(Math.max(a.x, b.x)));
    const y0 = Math.max(0, Math.floor(Math.min(a.y, b.y)));
    const y1 = Math.min(this.height - 1, Math.floor(Math.max(a.y, b.y)));
    for (let y = y0; y <= y1; y++) this.labels.fill(label, y * this.width + x0, y * this.width + x1 + 1);
  }

  /** Polygon / lasso fill, even-odd rule, sampled at pixel centres (scanline). */
  polygon(points: readonly Point[], label: Label): void {
    if (points.length < 3) return;
    for (let y = 0; y < this.height; y++) {
      const cy = y + 0.5;
      const xs: number[] = [];
      for (let i = 0; i < points.length; i++) {
        const p = points[i] as Point;
        const q = points[(i + 1) % points.length] as Point;
        if ((p.y <= cy && q.y > cy) || (q.y <= cy && p.y > cy)) xs.push(p.x + ((cy - p.y) / (q.y - p.y)) * (q.x - p.x));
      }
      xs.sort((a, b) => a - b);
      for (let i = 0; i + 1 < xs.length; i += 2) {
        const from = Math.max(0, Math.ceil((xs[i] as number) - 0.5));
        const to = Math.min(this.width - 1, Math.floor((xs[i + 1] as number) - 0.5));
        if (to >= from) this.labels.fill(label, y * this.width + from, y * this.width + to + 1);
      }
    }
  }

  /**
   * Flood fill from a seed (4-connected). Without `similar`, the region is the seed's connected
   * pixels of the same label; with it (the photo's colours at mask resolution), the pixels
   * `similar(seedIndex, index)` accepts, e.g. a wall of one colour.
   */
  flood(seed: Point, label: Label, similar?: (seedIndex: number, index: number) => boolean): number {
    const sx = Math.floor(seed.x);
    const sy = Math.floor(seed.y);
    if (sx < 0 || sy < 0 || sx >= this.width || sy >= this.height) return 0;
    const start = sy * this.width + sx;
    const target = this.labels[start];
    const accept = similar ? (i: number) => similar(start, i) : (i: number) => this.labels[i] === target;
    const seen = new Uint8Array(this.width * this.height);
    const stack = [start];
    seen[start] = 1;
    let filled = 0;
    while (stack.length > 0) {
      const i = stack.pop() as number;
      this.labels[i] = label;
      filled++;
      const x = i % this.width;
      const neighbours = [x > 0 ? i - 1 : -1, x < this.width - 1 ? i + 1 : -1, i - this.width, i + this.width];
      for (const n of neighbours) {
        if (n < 0 || n >= this.labels.length || seen[n]) continue;
        seen[n] = 1;
        if (accept(n)) stack.push(n);
      }
    }
    return filled;
  }

  /** Pixel count per label (index 0 = unpainted). */
  counts(): number[] {
    const counts = [0, 0, 0, 0, 0, 0];
    for (const l of this.labels) counts[l] = (counts[l] ?? 0) + 1;
    return counts;
  }

  /** Palette colours that hold any pixel, with their share of the mask (the server ignores < 0.01 %). */
  paintedColors(): { color: MaskColor; coverage: number; countsForServer: boolean }[] {
    const counts = this.counts();
    const total = this.width * this.height;
    return MASK_PALETTE.flatMap((color, i) => {
      const n = counts[i + 1] ?? 0;
      if (n === 0) return [];
      return [{ color, coverage: n / total, countsForServer: n / total >= MASK_MIN_COVERAGE }];
    });
  }

  /** RGBA pixels: palette colour at alpha 255, or transparent black. Put on a canvas and encode as PNG. */
  toRgba(): Uint8ClampedArray<ArrayBuffer> {
    const rgba = new Uint8ClampedArray(this.width * this.height * 4);
    const colours = MASK_PALETTE.map(rgbOf);
    for (let i = 0; i < this.labels.length; i++) {
      const l = this.labels[i] as number;
      if (l === 0) continue;
      const [r, g, b] = colours[l - 1] as [number, number, number];
      rgba[i * 4] = r;
      rgba[i * 4 + 1] = g;
      rgba[i * 4 + 2] = b;
      rgba[i * 4 + 3] = 255;
    }
    return rgba;
  }

  /**
   * An existing mask (decoded RGBA, resampled by nearest neighbour to this raster's size),
   * classified by the server's rule: alpha ≥ 128 and within 48 of a palette colour per channel.
   */
  static fromRgba(rgba: Uint8ClampedArray | Uint8Array, sourceWidth: number, sourceHeight: number, width = sourceWidth, height = sourceHeight): MaskRaster {
    const raster = new MaskRaster(width, height);
    const colours = MASK_PALETTE.map(rgbOf);
    for (let y = 0; y < height; y++) {
      const sy = Math.min(sourceHeight - 1, Math.floor(((y + 0.5) * sourceHeight) / height));
      for (let x = 0; x < width; x++) {
        const sx = Math.min(sourceWidth - 1, Math.floor(((x + 0.5) * sourceWidth) / width));
        const o = (sy * sourceWidth + sx) * 4;
        if ((rgba[o + 3] ?? 0) < MASK_MIN_ALPHA) continue;
        const r = rgba[o] ?? 0;
        const g = rgba[o + 1] ?? 0;
        const b = rgba[o + 2] ?? 0;
        const found = colours.findIndex(([pr, pg, pb]) => Math.abs(r - pr) <= MASK_CHANNEL_TOLERANCE && Math.abs(g - pg) <= MASK_CHANNEL_TOLERANCE && Math.abs(b - pb) <= MASK_CHANNEL_TOLERANCE);
        if (found >= 0) raster.labels[y * width + x] = found + 1;
      }
    }
    return raster;
  }
}

/**
 * Why a mask PNG of this size cannot serve this photo (the server's rule: the photo's proportions
 * within 1 %, long side at least 512 px or the photo's own), or null when it can.
 */
export function maskSizeProblem(maskWidth: number, maskHeight: number, imageWidth: number, imageHeight: number): string | null {
  const proportionError = Math.abs(maskWidth * imageHeight - imageWidth * maskHeight) / (imageWidth * maskHeight);
  if (proportionError > MASK_PROPORTION_TOLERANCE) {
    return `This mask is ${maskWidth}×${maskHeight}: it must have the photo's proportions (${imageWidth}×${imageHeight}) within 1 %. The mask was not loaded.`;
  }
  const needed = Math.min(MASK_MIN_LONG_SIDE, Math.max(imageWidth, imageHeight));
  if (Math.max(maskWidth, maskHeight) < needed) {
    return `This mask's long side is ${Math.max(maskWidth, maskHeight)} px: it must be at least ${needed} px. The mask was not loaded.`;
  }
  return null;
}

/** Opaque pixels (alpha ≥ 128) of a decoded PNG, and how many of them are not a palette colour. */
export function opaquePixels(rgba: Uint8ClampedArray | Uint8Array): { opaque: number; offPalette: number } {
  const colours = MASK_PALETTE.map(rgbOf);
  let opaque = 0;
  let offPalette = 0;
  for (let o = 0; o < rgba.length; o += 4) {
    if ((rgba[o + 3] ?? 0) < MASK_MIN_ALPHA) continue;
    opaque++;
    const r = rgba[o] ?? 0;
    const g = rgba[o + 1] ?? 0;
    const b = rgba[o + 2] ?? 0;
    if (!colours.some(([pr, pg, pb]) => Math.abs(r - pr) <= MASK_CHANNEL_TOLERANCE && Math.abs(g - pg) <= MASK_CHANNEL_TOLERANCE && Math.abs(b - pb) <= MASK_CHANNEL_TOLERANCE)) offPalette++;
  }
  return { opaque, offPalette };
}

/** Undo/redo of whole-raster snapshots (a mask of 2048² is 4 MB; 30 steps kept). */
export class MaskHistory {
  private undoStack: Uint8Array[] = [];
  private redoStack: Uint8Array[] = [];
  constructor(private readonly limit = 30) {}

  /** Call before an operation changes the raster. */
  record(raster: MaskRaster): void {
    this.undoStack.push(raster.labels.slice());
    if (this.undoStack.length > this.limit) this.undoStack.shift();
    this.redoStack = [];
  }
  undo(raster: MaskRaster): boolean {
    const previous = this.undoStack.pop();
    if (!previous) return false;
    this.redoStack.push(raster.labels.slice());
    raster.labels.set(previous);
    return true;
  }
  redo(raster: MaskRaster): boolean {
    const next = this.redoStack.pop();
    if (!next) return false;
    this.undoStack.push(raster.labels.slice());
    raster.labels.set(next);
    return true;
  }
  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }
  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }
}

export { MASK_MIN_LONG_SIDE, MASK_PALETTE, type MaskColor };

/** A rectangle narrower or lower than one mask pixel (both corners set at one spot, or on one line) paints nothing. */
export function rectIsEmpty(a: Point, b: Point): boolean {
  return Math.abs(a.x - b.x) < 1 || Math.abs(a.y - b.y) < 1;
}
