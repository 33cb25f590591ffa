/** Decorative wall panelling. */
import type { PanelTexture } from '@/server/capabilities/reference/texture-schema';
import { fbm, hexToRgb, per, relief, sstep, type Ctx } from './kit';

// ---------------------------------------------------------------------------------------------
// Panelling
// ---------------------------------------------------------------------------------------------

export function renderPanel(c: Ctx, t: PanelTexture): void {
  const { w, h, seed } = c;
  const [br, bg, bb] = hexToRgb(t.base);
  const col = new Float32Array(w * h * 3);
  const hgt = new Float32Array(w * h);
  const P = t.pitchCm;
  const st = t.style;
  const horizontal = st === 'shiplap';
  const n = horizontal ? per(c.spanY, P) : per(c.spanX, P);
  const pAdj = horizontal ? c.spanY / n : c.spanX / n;
  // Wainscot panels are taller than wide.
  const nv = per(c.spanY, P * 1.3);
  const pV = c.spanY / nv;
  const sx = per(c.spanX, 0.3), sy = per(c.spanY, 0.3);
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    const Y = (y + 0.5) * c.cm;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const X = (x + 0.5) * c.cm;
      const coord = horizontal ? Y : X;
      const k = Math.floor(coord / pAdj);
      const l = coord - k * pAdj; // cm inside the repeat
      let height = 0, ao = 1;
      switch (st) {
        case 'fluted': {
          // Convex half-round reeds separated by a narrow groove.
          const g = 0.18;
          const tt = (l - g / 2) / (pAdj - g);
          if (tt > 0 && tt < 1) height = Math.sqrt(tt * (1 - tt)) * pAdj * 0.45;
          ao = 0.78 + 0.22 * sstep(0, 0.35, Math.sqrt(Math.max(0, tt * (1 - tt))) * 2);
          break;
        }
        case 'shiplap': {
          // Shadow gap at the top of each board.
          const gap = 0.6;
          if (l < gap) {
            height = -0.8;
            ao = 0.45 + 0.3 * (l / gap);
          } else {
            height = 0.1 * sstep(gap, gap + 0.4, l);
          }
          break;
        }
        case 'beadboard': {
          // V-groove at each board joint plus a bead mid-board.
          const e = Math.min(l, pAdj - l);
          height = -0.25 * (1 - sstep(0, 0.3, e));
          const bead = Math.abs(l - pAdj / 2);
          if (bead < 0.5) height = Math.sqrt(Math.max(0, 0.25 - bead * bead)) * 0.5 - 0.15 * (bead > 0.4 ? 1 : 0);
          ao = 0.7 + 0.3 * sstep(0, 0.35, e);
          break;
        }
        case 'wainscot': {
          // Stiles and rails frame a raised, bevelled field.
          const kv = Math.floor(Y / pV);
          const lv = Y - kv * pV;
          const frame = pAdj * 0.13;
          const ex = Math.min(l, pAdj - l) - frame / 2, ey = Math.min(lv, pV - lv) - frame / 2;
          const e = Math.min(ex, ey);
          if (e < 0) {
            height = 1.2;
          } else {
            height = 0.3 + 0.8 * sstep(0.4, 3.5, e);
            ao = 0.72 + 0.28 * sstep(0, 1.2, e);
          }
          break;
        }
        case 'board_and_batten': {
          const bw = 6;
          const e = Math.min(l, bw - l);
          if (l < bw) height = 1.6 * sstep(0, 0.25, e);
          ao = l < bw ? 1 : 0.8 + 0.2 * sstep(0, 1.2, Math.min(l - bw, pAdj - l));
          break;
        }
      }
      const stip = fbm(u * sx, v * sy, sx, sy, seed, 2);
      const f = ao * (1 + 0.02 * stip);
      const i = y * w + x, o = i * 3;
      col[o] = br * f;
      col[o + 1] = bg * f;
      col[o + 2] = bb * f;
      hgt[i] = height;
    }
  }
  relief(c, col, hgt, 0.3);
}
