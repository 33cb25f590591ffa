// @node-lines same: our zod parsing of texture recipes
import { describe, expect, it } from 'vitest';
import { catalog } from './catalog';

const EDIT_MATERIALS = catalog().materials;
import { storedTexture } from './texture-schema';

describe('texture recipes parsed on read', () => {
  it('accepts every catalogue texture as stored (a JSON round trip), unchanged', () => {
    for (const m of EDIT_MATERIALS) expect(storedTexture(JSON.parse(JSON.stringify(m.texture))), m.id).toEqual(m.texture);
  });

  it('refuses a row that is not a recipe: unknown kind, missing field, bad colour', () => {
    expect(() => storedTexture({ kind: 'velour', base: '#FFFFFF' })).toThrow();
    expect(() => storedTexture({ kind: 'paint', color: '#FFFFFF' })).toThrow(/sheen/);
    expect(() => storedTexture({ kind: 'paint', color: 'white', sheen: 'matte' })).toThrow(/#RRGGBB/);
    expect(() => storedTexture(null)).toThrow();
  });
});
