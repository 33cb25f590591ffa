/** Float image filters used by several operations. */

/**
 * Box blur of a single-channel float image (running sums, separable). Each output is the mean
 * of the window's pixels that lie inside the image, so borders do not darken.
 */
export function boxBlurFloat(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  if (r <= 0) {
    out.set(src);
    return out;
  }
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let sum = 0, cnt = 0;
    for (let x = 0; x <= r && x < w; x++) {
      sum += src[row + x]!;
      cnt++;
    }
    for (let x = 0; x < w; x++) {
      tmp[row + x] = sum / cnt;
      const a = x + r + 1, s = x - r;
      if (a < w) {
        sum += src[row + a]!;
        cnt++;
      }
      if (s >= 0) {
        sum -= src[row + s]!;
        cnt--;
      }
    }
  }
  const colSum = new Float64Array(w);
  const colCnt = new Int32Array(w);
  for (let y = 0; y <= r && y < h; y++) {
    for (let x = 0; x < w; x++) colSum[x]! += tmp[y * w + x]!;
    for (let x = 0; x < w; x++) colCnt[x]!++;
  }
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) out[row + x] = colSum[x]! / colCnt[x]!;
    const a = y + r + 1, s = y - r;
    if (a < h) for (let x = 0; x < w; x++) {
      colSum[x]! += tmp[a * w + x]!;
      colCnt[x]!++;
    }
    if (s >= 0) for (let x = 0; x < w; x++) {
      colSum[x]! -= tmp[s * w + x]!;
      colCnt[x]!--;
    }
  }
  return out;
}

/**
 * Blur of `values` that only averages pixels where `weight` > 0 (normalised convolution):
 * blur(v*w) / blur(w). Used to smooth shading inside an area without pulling in the outside.
 */
export function maskedBlur(values: Float32Array, weight: Float32Array, w: number, h: number, r: number, passes = 2): Float32Array {
  let vw: Float32Array = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) vw[i] = values[i]! * weight[i]!;
  let ww: Float32Array = weight;
  for (let p = 0; p < passes; p++) {
    vw = boxBlurFloat(vw, w, h, r);
    ww = boxBlurFloat(ww, w, h, r);
  }
  const out = new Float32Array(values.length);
  for (let i = 0; i < out.length; i++) out[i] = ww[i]! > 1e-6 ? vw[i]! / ww[i]! : values[i]!;
  return out;
}
