import { describe, expect, it } from 'vitest';
import { creationBody } from '../src/core/uploads.js';

describe('creation bodies', () => {
  it('JSON when every image is a URL', async () => {
    const params = { image: 'https://images.example.com/a.jpg', mode: 'mask', mask: new URL('https://images.example.com/m.png'), layers: [{ mask_color: '#FF0000', action: 'add', element: 'https://images.example.com/lamp.png' }], background: true };
    expect(await creationBody(params)).toEqual({ ...params, mask: 'https://images.example.com/m.png' });
  });

  it('multipart as soon as a file is given: parts named as their fields, layers/metadata JSON text, background text', async () => {
    const form = await creationBody({
      image: new Uint8Array([1, 2, 3]),
      mode: 'mask',
      quality: '1k',
      mask: 'https://images.example.com/m.png',
      layers: [
        { mask_color: '#FF0000', action: 'modify', color: '#112233' },
        { mask_color: '#0066FF', action: 'add', element: new Blob([new Uint8Array([4, 5])]) },
      ],
      metadata: { a: 'b' },
      background: false,
    });
    expect(form).toBeInstanceOf(FormData);
    const entries = [...(form as FormData).entries()].map(([name, value]) => [name, typeof value === 'string' ? value : `file:${value.size}`]);
    expect(entries).toEqual([
      ['mode', 'mask'],
      ['quality', '1k'],
      ['mask', 'https://images.example.com/m.png'],
      ['layers', JSON.stringify([{ mask_color: '#FF0000', action: 'modify', color: '#112233' }, { mask_color: '#0066FF', action: 'add' }])],
      ['metadata', '{"a":"b"}'],
      ['background', 'false'],
      ['image', 'file:3'],
      ['layers[1].element', 'file:2'],
    ]);
  });

  it('a stream is read once, into memory, so a retry can send it again', async () => {
    async function* chunks() {
      yield new Uint8Array([1, 2]);
      yield new Uint8Array([3]);
    }
    const form = (await creationBody({ image: chunks() })) as FormData;
    const file = form.get('image') as Blob;
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([1, 2, 3]);
  });
});
