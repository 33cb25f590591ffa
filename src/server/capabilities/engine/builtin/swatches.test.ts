// @node-lines same: pixel arithmetic on typed arrays; the engine's worker threads and encoders run under both lines in src/server/capabilities/engine/builtin/offthread.test.ts, encode.test.ts and upscale.test.ts
import { describe, expect, it } from 'vitest';
import { catalog, type MaterialTexture } from '@/server/capabilities/reference/catalog';

const EDIT_MATERIALS = catalog().materials;
import {
  defaultSpanCm,
  deltaE,
  hexToRgb,
  materialSeed,
  renderSwatch,
  rgbToLab,
  swatchMeanLab,
  swatchPng,
  textureNominalColor,
} from './swatches';

const N = 64;

function stats(data: Buffer): { mean: [number, number, number]; sd: number } {
  let r = 0, g = 0, b = 0, l = 0, l2 = 0;
  const n = data.length / 3;
  for (let i = 0; i < data.length; i += 3) {
    r += data[i]!;
    g += data[i + 1]!;
    b += data[i + 2]!;
    const y = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
    l += y;
    l2 += y * y;
  }
  return { mean: [r / n, g / n, b / n], sd: Math.sqrt(Math.max(0, l2 / n - (l / n) ** 2)) };
}

/** How far the recipe's nominal colour may sit from the swatch mean (CIE76), per kind. */
const MEAN_TOLERANCE: Record<MaterialTexture['kind'], number> = {
  paint: 2,
  plaster: 5,
  concrete: 8,
  panel: 5,
  metal: 5,
  brick: 5,
  fabric: 7,
  tiles: 10,
  wood: 9,
  marble: 10,
  stone: 13,
  terrazzo: 10,
  glass: 10,
  wallpaper: 10,
};

describe('renderSwatch', () => {
  describe.each(EDIT_MATERIALS.map((m) => [m.id, m] as const))('%s', (_id, m) => {
    const seed = materialSeed(m.id);
    const img = renderSwatch(m.texture, N, N, seed);

    it('renders 64×64 raw RGB', () => {
      expect(img.width).toBe(N);
      expect(img.height).toBe(N);
      expect(img.channels).toBe(3);
      expect(img.data.length).toBe(N * N * 3);
    });

    it('is deterministic for a seed and varies with it', () => {
      expect(renderSwatch(m.texture, N, N, seed).data.equals(img.data)).toBe(true);
      expect(renderSwatch(m.texture, N, N, seed + 1).data.equals(img.data)).toBe(false);
    });

    it('is not flat', () => {
      expect(stats(img.data).sd).toBeGreaterThan(0.8);
    });

    // Patinas, burls, slats and other blends by design have no nominal colour: the check exists
    // only for the recipes that have one (never a skipped test: CI fails on unexplained skips).
    const nominal = textureNominalColor(m.texture);
    if (nominal !== null) {
      it('averages near its nominal colour', () => {
        const { mean } = stats(img.data);
        const de = deltaE(rgbToLab(...mean), rgbToLab(...hexToRgb(nominal)));
        expect(de, `ΔE ${de.toFixed(1)} mean ${mean.map((v) => v.toFixed(0)).join(',')} vs ${nominal}`).toBeLessThan(
          MEAN_TOLERANCE[m.texture.kind],
        );
      });
    }
  });

  it('renders non-square sizes and honours spanCm', () => {
    const wood = EDIT_MATERIALS.find((m) => m.id === 'mat_oak_herringbone')!.texture;
    const a = renderSwatch(wood, 96, 40, 3);
    expect(a.data.length).toBe(96 * 40 * 3);
    const b = renderSwatch(wood, 96, 40, 3, { spanCm: defaultSpanCm(wood) * 2 });
    expect(b.data.equals(a.data)).toBe(false);
    expect(renderSwatch(wood, 1, 1).data.length).toBe(3);
  });

  it('rejects invalid sizes', () => {
    const paint = EDIT_MATERIALS.find((m) => m.texture.kind === 'paint')!.texture;
    expect(() => renderSwatch(paint, 0, 10)).toThrow(RangeError);
    expect(() => renderSwatch(paint, 10.5, 10)).toThrow(RangeError);
    expect(() => renderSwatch(paint, 10, 10, 1, { spanCm: 0 })).toThrow(RangeError);
  });

  it('has a positive default span for every recipe', () => {
    for (const m of EDIT_MATERIALS) expect(defaultSpanCm(m.texture), m.id).toBeGreaterThan(0);
  });

  it('tiles seamlessly: the wrap-around seam is no harsher than an ordinary column step', () => {
    const ids = ['mat_paint_sage_green', 'mat_limewash_chalk', 'mat_carrara_marble', 'mat_polished_concrete_floor', 'mat_linen_natural', 'mat_brushed_brass'];
    const S = 128;
    for (const id of ids) {
      const { data } = renderSwatch(EDIT_MATERIALS.find((m) => m.id === id)!.texture, S, S, 5);
      const colDiff = (x0: number, x1: number): number => {
        let d = 0;
        for (let y = 0; y < S; y++) for (let k = 0; k < 3; k++) d += Math.abs(data[(y * S + x0) * 3 + k]! - data[(y * S + x1) * 3 + k]!);
        return d;
      };
      let inner = 0;
      for (let x = 0; x < S - 1; x++) inner += colDiff(x, x + 1);
      inner /= S - 1;
      expect(colDiff(S - 1, 0), id).toBeLessThan(inner * 2.5 + 1);
    }
  });
});

describe('swatchMeanLab', () => {
  it('returns a cached L*a*b* close to the nominal colour for paint', () => {
    const t = EDIT_MATERIALS.find((m) => m.id === 'mat_paint_midnight_navy')!.texture;
    const lab = swatchMeanLab(t);
    expect(swatchMeanLab(t)).toBe(lab);
    expect(deltaE(lab, rgbToLab(...hexToRgb('#27314A')))).toBeLessThan(2);
  });
});

describe('swatchPng', () => {
  it('encodes a PNG of the requested size and caches it', async () => {
    const png = await swatchPng('mat_zellige_emerald', 48);
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(png.readUInt32BE(16)).toBe(48); // IHDR width
    expect(png.readUInt32BE(20)).toBe(48); // IHDR height
    expect(await swatchPng('mat_zellige_emerald', 48)).toBe(png);
  });

  it('defaults to 256 px, renders withdrawn materials, rejects unknown ids and bad sizes', async () => {
    const png = await swatchPng('mat_carbonized_bamboo_strand');
    expect(png.readUInt32BE(16)).toBe(256);
    await expect(swatchPng('mat_nope')).rejects.toThrow(/Unknown material/);
    await expect(swatchPng('mat_oak_herringbone', 0)).rejects.toThrow(RangeError);
  });
});
