/**
 * Deterministic preview for operations the built-in engine cannot really perform (renders,
 * decorations, prompt-mode edits in TEST mode): the input resized to the target size with a
 * seed-derived colour grade (split toning + gentle S-curve) and a vignette. Clearly visible,
 * never text, letters or logos. Same input + seed -> byte-identical output (integer hash seeds,
 * no Math.random, fixed arithmetic order).
 */
import { assertImage, toRGB, type RawImage } from './types';
import { resampleLanczos3 } from './resample';
import { hashString, rng } from './noise';

/** Tasteful grade pairs (shadow tint, highlight tint) in RGB offsets. */
const GRADES: { shadow: [number, number, number]; highlight: [number, number, number] }[] = [
  { shadow: [-10, 4, 18], highlight: [16, 6, -12] }, // teal / amber
  { shadow: [6, -4, 14], highlight: [14, 8, -6] }, // plum / warm
  { shadow: [-6, 10, 2], highlight: [10, 10, -8] }, // sage / honey
  { shadow: [-12, -2, 16], highlight: [8, 2, -4] }, // dusk blue
  { shadow: [10, 2, -6], highlight: [12, -2, 4] }, // rose / terracotta
];

export type PreviewTarget = { width: number; height: number };

export function deterministicPreview(img: RawImage, target: PreviewTarget, seed: string): RawImage {
  assertImage(img);
  const W = Math.round(target.width), H = Math.round(target.height);
  if (!(W >= 1 && H >= 1)) throw new RangeError(`preview: invalid target ${target.width}x${target.height}`);
  const base = resampleLanczos3(toRGB(img), W, H);
  const r = rng(hashString(seed));
  const grade = GRADES[Math.floor(r() * GRADES.length)]!;
  const amount = 0.9 + 0.5 * r(); // 0.9..1.4
  const vignette = 0.38 + 0.14 * r();
  const contrast = 0.1 + 0.08 * r();
  const cxs = 0.45 + 0.1 * r(), cys = 0.42 + 0.1 * r(); // vignette centre

  // LUTs: the tone curve depends on the channel value, the split-tone tint on the pixel's luma.
  const curve = new Float32Array(256);
  const tint = [new Float32Array(256), new Float32Array(256), new Float32Array(256)];
  for (let v = 0; v < 256; v++) {
    const t = v / 255;
    curve[v] = (t + contrast * (t - 0.5) * (1 - Math.abs(2 * t - 1)) * 2) * 255; // soft S
    const shadowW = (1 - t) * (1 - t), highW = t * t;
    for (let c = 0; c < 3; c++) tint[c]![v] = amount * (grade.shadow[c]! * shadowW + grade.highlight[c]! * highW);
  }
  const out = new Uint8Array(W * H * 3);
  const outC = new Uint8ClampedArray(out.buffer);
  const d = base.data;
  const invDiag = 1 / Math.hypot(Math.max(cxs, 1 - cxs), Math.max(cys, 1 - cys));
  for (let y = 0; y < H; y++) {
    const vy = (y + 0.5) / H - cys;
    for (let x = 0; x < W; x++) {
      const vx = (x + 0.5) / W - cxs;
      const rr = Math.hypot(vx, vy) * invDiag;
      const vig = 1 - vignette * rr * rr * rr;
      const i = (y * W + x) * 3;
      const luma = Math.round(0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!);
      outC[i] = (curve[d[i]!]! + tint[0]![luma]!) * vig;
      outC[i + 1] = (curve[d[i + 1]!]! + tint[1]![luma]!) * vig;
      outC[i + 2] = (curve[d[i + 2]!]! + tint[2]![luma]!) * vig;
    }
  }
  return { data: out, width: W, height: H, channels: 3 };
}
