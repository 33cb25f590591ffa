/**
 * Image quality metrics and reference resamplers for tests and benchmarks.
 */
import type { RawImage } from './types';

/** PSNR (dB) over RGB channels of two same-size images (alpha ignored). */
export function psnr(a: RawImage, b: RawImage): number {
  if (a.width !== b.width || a.height !== b.height) throw new RangeError('psnr: size mismatch');
  let se = 0;
  const n = a.width * a.height;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) {
      const d = a.data[i * a.channels + c]! - b.data[i * b.channels + c]!;
      se += d * d;
    }
  }
  const mse = se / (n * 3);
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

function luma(img: RawImage): Float64Array {
  const n = img.width * img.height;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * img.channels;
    y[i] = 0.299 * img.data[o]! + 0.587 * img.data[o + 1]! + 0.114 * img.data[o + 2]!;
  }
  return y;
}

/** Mean SSIM on luma, 8x8 windows with stride 4 (Wang et al. constants). */
export function ssim(a: RawImage, b: RawImage): number {
  if (a.width !== b.width || a.height !== b.height) throw new RangeError('ssim: size mismatch');
  const ya = luma(a), yb = luma(b);
  const w = a.width, h = a.height;
  const C1 = (0.01 * 255) ** 2, C2 = (0.03 * 255) ** 2;
  let sum = 0, n = 0;
  for (let y0 = 0; y0 + 8 <= h; y0 += 4) {
    for (let x0 = 0; x0 + 8 <= w; x0 += 4) {
      let ma = 0, mb = 0;
      for (let y = y0; y < y0 + 8; y++) for (let x = x0; x < x0 + 8; x++) {
        ma += ya[y * w + x]!;
        mb += yb[y * w + x]!;
      }
      ma /= 64;
      mb /= 64;
      let va = 0, vb = 0, cov = 0;
      for (let y = y0; y < y0 + 8; y++) for (let x = x0; x < x0 + 8; x++) {
        const da = ya[y * w + x]! - ma, db = yb[y * w + x]! - mb;
        va += da * da;
        vb += db * db;
        cov += da * db;
      }
      va /= 63;
      vb /= 63;
      cov /= 63;
      sum += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      n++;
    }
  }
  return n ? sum / n : 1;
}

/** Centre-aligned bicubic (Keys, a = -0.5) enlargement by an integer factor: a fair baseline. */
export function upscaleBicubicReference(img: RawImage, scale: number): RawImage {
  const { width: w, height: h, channels: c } = img;
  const W = w * scale, H = h * scale;
  const keys = (x: number): number => {
    const t = Math.abs(x);
    if (t <= 1) return 1.5 * t ** 3 - 2.5 * t ** 2 + 1;
    if (t < 2) return -0.5 * t ** 3 + 2.5 * t ** 2 - 4 * t + 2;
    return 0;
  };
  const clampI = (v: number, m: number): number => (v < 0 ? 0 : v >= m ? m - 1 : v);
  // The four taps of every output column and row (source index, Keys weight), computed once:
  // the same numbers, summed in the same order, as computing them per pixel and channel.
  const taps = (size: number, srcSize: number): { index: Int32Array; weight: Float64Array } => {
    const index = new Int32Array(size * 4), weight = new Float64Array(size * 4);
    for (let o = 0; o < size; o++) {
      const s = (o + 0.5) / scale - 0.5;
      const i = Math.floor(s);
      for (let k = -1; k <= 2; k++) {
        index[o * 4 + k + 1] = clampI(i + k, srcSize);
        weight[o * 4 + k + 1] = keys(s - (i + k));
      }
    }
    return { index, weight };
  };
  const tx = taps(W, w), ty = taps(H, h);
  const out = new Uint8Array(W * H * c);
  for (let Y = 0; Y < H; Y++) {
    for (let X = 0; X < W; X++) {
      for (let ch = 0; ch < c; ch++) {
        let acc = 0;
        for (let m = 0; m < 4; m++) {
          const wy = ty.weight[Y * 4 + m]!;
          const row = ty.index[Y * 4 + m]! * w;
          for (let k = 0; k < 4; k++) acc += wy * tx.weight[X * 4 + k]! * img.data[(row + tx.index[X * 4 + k]!) * c + ch]!;
        }
        out[(Y * W + X) * c + ch] = acc < 0 ? 0 : acc > 255 ? 255 : Math.round(acc);
      }
    }
  }
  return { data: out, width: W, height: H, channels: c };
}

/** Mean absolute luma gradient (x and y): a simple sharpness / detail-energy measure. */
export function gradientEnergy(img: RawImage): number {
  const y = luma(img);
  const w = img.width, h = img.height;
  let s = 0, n = 0;
  for (let r = 0; r < h - 1; r++) for (let x = 0; x < w - 1; x++) {
    const i = r * w + x;
    s += Math.abs(y[i + 1]! - y[i]!) + Math.abs(y[i + w]! - y[i]!);
    n++;
  }
  return n ? s / n : 0;
}
