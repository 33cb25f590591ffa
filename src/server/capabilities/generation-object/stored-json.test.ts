// @node-lines same: our zod parsing of stored JSON columns
import { describe, expect, it } from 'vitest';
import { qualityOf, storedInput } from './stored-json';

describe('the input column, parsed on read', () => {
  it('reads what admission writes for every type', () => {
    const rows = [
      { quality: '2k', scale: null, style: 'japandi' },
      { quality: '1k', scale: null, style: null, categories: ['plants', 'wall_art'] },
      { quality: null, scale: 'x4' },
      { quality: '2k', scale: null, mode: 'prompt', prompt: 'Warmer light' },
      {
        quality: '1k',
        scale: null,
        mode: 'mask',
        layers: [
          { mask_color: '#FF0000', action: 'modify', color: '#6B8E7F', finish: 'wood' },
          { mask_color: '#00FF00', action: 'modify', material: 'mat_oak_herringbone' },
          { mask_color: '#0000FF', action: 'remove' },
        ],
      },
    ];
    for (const row of rows) expect(storedInput(row)).toEqual(row);
  });

  it('refuses a row that does not match instead of passing it on', () => {
    expect(() => storedInput({ quality: '3k', scale: null })).toThrow();
    expect(() => storedInput({ quality: '1k', scale: null, mode: 'mask', layers: [{ mask_color: '#FF0000', action: 'paint' }] })).toThrow();
    expect(() => storedInput(null)).toThrow();
    expect(() => qualityOf(storedInput({ quality: null, scale: 'x2' }))).toThrow(/no quality/);
  });
});
