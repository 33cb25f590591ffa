// @node-lines same: the catalogue's data checked by its zod schema
import { describe, expect, it } from 'vitest';
import {
  catalog,
  getActiveEditMaterial,
  getEditMaterial,
  getEditMaterialCategory,
  getStyle,
  type MaterialTexture,
} from './catalog';
import { catalogSchema } from './catalog-schema';

const { styles: STYLES, categories: EDIT_MATERIAL_CATEGORIES, materials: EDIT_MATERIALS } = catalog();

const SLUG = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const MAT_ID = /^mat_[a-z0-9]+(_[a-z0-9]+)*$/;
const HEX = /^#[0-9A-Fa-f]{6}$/;

function unique(ids: readonly string[]): boolean {
  return new Set(ids).size === ids.length;
}

/** Every string in a texture recipe that looks like a colour. */
function colours(t: MaterialTexture): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string' && v.startsWith('#')) out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(t);
  return out;
}

function proseOk(s: string): boolean {
  return s.trim() === s && s.length >= 30 && !/lorem|ipsum|todo|tbd|xxx/i.test(s) && /[.!]$/.test(s);
}

describe('styles', () => {
  it('has at least 24 styles with unique slug ids', () => {
    expect(STYLES.length).toBeGreaterThanOrEqual(24);
    expect(unique(STYLES.map((s) => s.id))).toBe(true);
    for (const s of STYLES) expect(s.id, s.id).toMatch(SLUG);
  });

  it('covers the styles designers expect', () => {
    const ids = new Set(STYLES.map((s) => s.id));
    for (const id of [
      'scandinavian',
      'japandi',
      'mid_century_modern',
      'industrial',
      'bohemian',
      'coastal',
      'farmhouse',
      'art_deco',
      'minimalist',
      'mediterranean',
      'wabi_sabi',
      'french_country',
      'hollywood_regency',
      'maximalist',
      'contemporary',
      'traditional',
      'rustic',
      'tropical',
      'shabby_chic',
      'transitional',
      'memphis',
      'brutalist',
      'moroccan',
      'english_cottage',
      'biophilic',
      'neoclassical',
    ]) {
      expect(ids.has(id), id).toBe(true);
    }
  });

  it('has real names, descriptions and a strictly increasing sort order', () => {
    let last = -Infinity;
    for (const s of STYLES) {
      expect(s.name.length, s.id).toBeGreaterThan(2);
      expect(proseOk(s.description), s.id).toBe(true);
      expect(s.sort, s.id).toBeGreaterThan(last);
      last = s.sort;
    }
    expect(unique(STYLES.map((s) => s.name))).toBe(true);
  });

  it('looks styles up by id', () => {
    expect(getStyle('japandi')?.name).toBe('Japandi');
    expect(getStyle('nope')).toBeUndefined();
  });
});

describe('edit material categories', () => {
  it('has at least 8 categories with unique slug ids, including the core ones', () => {
    expect(EDIT_MATERIAL_CATEGORIES.length).toBeGreaterThanOrEqual(8);
    expect(unique(EDIT_MATERIAL_CATEGORIES.map((c) => c.id))).toBe(true);
    for (const c of EDIT_MATERIAL_CATEGORIES) expect(c.id).toMatch(SLUG);
    const ids = new Set(EDIT_MATERIAL_CATEGORIES.map((c) => c.id));
    for (const id of ['flooring', 'walls', 'paint', 'tiles', 'stone', 'wood', 'fabrics', 'metals', 'glass']) {
      expect(ids.has(id), id).toBe(true);
    }
  });

  it('has descriptions and a strictly increasing sort order', () => {
    let last = -Infinity;
    for (const c of EDIT_MATERIAL_CATEGORIES) {
      expect(proseOk(c.description), c.id).toBe(true);
      expect(c.sort).toBeGreaterThan(last);
      last = c.sort;
    }
    expect(getEditMaterialCategory('tiles')?.name).toBe('Tiles');
  });
});

describe('edit materials', () => {
  it('has at least 80 materials with unique mat_ ids and names', () => {
    expect(EDIT_MATERIALS.length).toBeGreaterThanOrEqual(80);
    expect(unique(EDIT_MATERIALS.map((m) => m.id))).toBe(true);
    expect(unique(EDIT_MATERIALS.map((m) => m.name))).toBe(true);
    for (const m of EDIT_MATERIALS) expect(m.id).toMatch(MAT_ID);
  });

  it('puts every material in an existing category, at least 6 per category', () => {
    const cats = new Set(EDIT_MATERIAL_CATEGORIES.map((c) => c.id));
    for (const m of EDIT_MATERIALS) expect(cats.has(m.categoryId), `${m.id} → ${m.categoryId}`).toBe(true);
    for (const c of EDIT_MATERIAL_CATEGORIES) {
      const active = EDIT_MATERIALS.filter((m) => m.categoryId === c.id && !m.withdrawn);
      expect(active.length, c.id).toBeGreaterThanOrEqual(6);
    }
  });

  it('has at least one, but only a few, withdrawn materials', () => {
    const withdrawn = EDIT_MATERIALS.filter((m) => m.withdrawn);
    expect(withdrawn.length).toBeGreaterThanOrEqual(1);
    expect(withdrawn.length).toBeLessThanOrEqual(3);
    for (const m of withdrawn) {
      expect(getActiveEditMaterial(m.id)).toBeUndefined();
      expect(getEditMaterial(m.id)).toBe(m);
    }
  });

  it('finds active materials and nothing for unknown ids', () => {
    expect(getActiveEditMaterial('mat_oak_herringbone')?.categoryId).toBe('flooring');
    expect(getActiveEditMaterial('mat_does_not_exist')).toBeUndefined();
    expect(getEditMaterial('oak_herringbone')).toBeUndefined();
  });

  it('has natural-language names and descriptions', () => {
    for (const m of EDIT_MATERIALS) {
      expect(m.name.length, m.id).toBeGreaterThan(3);
      expect(proseOk(m.description), m.id).toBe(true);
    }
  });

  it('has well-formed texture recipes', () => {
    for (const m of EDIT_MATERIALS) {
      const t = m.texture;
      for (const c of colours(t)) expect(c, `${m.id} colour ${c}`).toMatch(HEX);
      switch (t.kind) {
        case 'wood':
          expect(t.plank.widthCm).toBeGreaterThan(0);
          expect(t.plank.lengthCm).toBeGreaterThanOrEqual(t.plank.widthCm);
          break;
        case 'tiles':
          expect(t.sizeCm).toBeGreaterThan(0);
          expect(t.groutCm).toBeGreaterThanOrEqual(0);
          if (t.layout === 'checker' || t.layout === 'encaustic') expect(t.tile2, m.id).toBeDefined();
          break;
        case 'terrazzo':
          expect(t.chips.length).toBeGreaterThan(0);
          expect(t.density).toBeGreaterThan(0);
          expect(t.density).toBeLessThanOrEqual(1);
          break;
        case 'marble':
          expect(t.veinScale).toBeGreaterThan(0);
          break;
        case 'wallpaper':
          expect(t.repeatCm).toBeGreaterThan(0);
          break;
        case 'panel':
          expect(t.pitchCm).toBeGreaterThan(0);
          break;
        case 'metal':
          if (t.finish === 'patina') expect(t.patina, m.id).toBeDefined();
          break;
        default:
          break;
      }
    }
  });

  it('uses a manageable set of texture kinds, each at least once', () => {
    const kinds = new Set(EDIT_MATERIALS.map((m) => m.texture.kind));
    expect(kinds.size).toBeGreaterThanOrEqual(10);
    expect(kinds.size).toBeLessThanOrEqual(16);
  });
});

describe('catalog.json is data checked by its schema', () => {
  const valid = () => JSON.parse(JSON.stringify({ styles: STYLES, categories: EDIT_MATERIAL_CATEGORIES, materials: EDIT_MATERIALS })) as Record<string, Array<Record<string, unknown>>>;

  it('the file as shipped passes, and the reader answers the same objects every time (loaded once)', () => {
    expect(catalogSchema.safeParse(valid()).success).toBe(true);
    expect(catalog()).toBe(catalog());
    expect(getEditMaterial(EDIT_MATERIALS[0]!.id)).toBe(catalog().materials[0]);
  });

  it('refuses a duplicated id, an unknown category, a misspelt texture field and an unknown field', () => {
    const duplicated = valid();
    duplicated.materials!.push({ ...duplicated.materials![0]! });
    expect(catalogSchema.safeParse(duplicated).error?.issues[0]?.message).toMatch(/appears twice/);

    const orphan = valid();
    orphan.materials![0]!.categoryId = 'no_such_category';
    expect(catalogSchema.safeParse(orphan).error?.issues[0]?.message).toMatch(/unknown category no_such_category/);

    const typo = valid();
    typo.materials![0]!.texture = { ...(typo.materials![0]!.texture as object), grian: '#000000' };
    expect(catalogSchema.safeParse(typo).success).toBe(false);

    const extra = valid();
    extra.styles![0]!.colour = 'red';
    expect(catalogSchema.safeParse(extra).success).toBe(false);
  });
});
