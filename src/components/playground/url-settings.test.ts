// @node-lines same: the console's browser code: it runs in the browser, not on a Node line
import { describe, expect, it } from 'vitest';
import { DEFAULT_FORM, type PlaygroundForm } from './playground-request';
import { formFromSearch, searchOfForm } from './url-settings';

describe('the playground URL holds the kind, its settings and the shown generation', () => {
  it('a form written to the URL reads back the same (what a reload or a shared link opens)', () => {
    const forms: PlaygroundForm[] = [
      { ...DEFAULT_FORM, kind: 'upscale', scale: 'x4' },
      { ...DEFAULT_FORM, kind: 'edit', quality: '1k', mode: 'prompt', prompt: 'Paint the walls sage green & keep the floor', background: true },
      { ...DEFAULT_FORM, kind: 'decoration', quality: '4k', style: 'japandi', categories: ['plants', 'lighting'] },
    ];
    for (const form of forms) {
      const search = searchOfForm(form, 'gen_abc123', new URLSearchParams());
      expect(formFromSearch(new URLSearchParams(search.toString()))).toEqual(form);
      expect(search.get('gen')).toBe('gen_abc123');
    }
  });

  it('values the form does not offer fall back to the draft (or the defaults); the replay id is kept', () => {
    const read = formFromSearch(new URLSearchParams('kind=sculpt&quality=16k&categories=plants,unicorns&mode=mask'), { ...DEFAULT_FORM, kind: 'upscale' });
    expect(read).toEqual({ ...DEFAULT_FORM, kind: 'upscale', categories: ['plants'], mode: 'mask' });
    expect(searchOfForm(DEFAULT_FORM, null, new URLSearchParams('replay=req_1')).toString()).toBe('replay=req_1&kind=render&quality=2k');
  });
});
