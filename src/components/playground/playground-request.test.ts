// @node-lines same: the console's browser code: it runs in the browser, not on a Node line
import { describe, expect, it } from 'vitest';
import { formFromGeneration } from './playground-request';

describe('formFromGeneration (replay from the log)', () => {
  it('a material layer keeps the id only: the editor does not show it twice as its name ("mat_velvet_rust mat_velvet_rust")', () => {
    const { form, layers } = formFromGeneration({
      type: 'edit',
      input: { mode: 'mask', quality: '1k', layers: [{ mask_color: '#FF0000', action: 'modify', material: 'mat_velvet_rust' }] },
      metadata: {},
    });
    expect(form).toMatchObject({ kind: 'edit', mode: 'mask', quality: '1k' });
    expect(layers).toEqual([expect.objectContaining({ mask_color: '#FF0000', action: 'modify', by: 'material', material: 'mat_velvet_rust', materialName: null })]);
  });
});
