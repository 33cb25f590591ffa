// @node-lines same: our formatting of a parameter path
import { describe, expect, it } from 'vitest';
import { paramFromPath } from './param-path';

describe('paramFromPath', () => {
  it('names a position as the spec does', () => {
    expect(paramFromPath(['layers', 0, 'element'])).toBe('layers[0].element');
    expect(paramFromPath(['metadata', 'room'])).toBe('metadata.room');
    expect(paramFromPath(['image'])).toBe('image');
    expect(paramFromPath([])).toBe('');
  });
});
