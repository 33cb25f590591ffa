import { describe, expect, it } from 'vitest';
import { loggedAnswer, loggedJson, MAX_LOGGED_JSON, redactForLog } from './redact';

describe('request log redaction', () => {
  it('hides secrets by field name, image data, uploaded files and URL queries', () => {
    const redacted = redactForLog({
      prompt: 'a green sofa',
      image: 'https://images.example.com/room.jpg?X-Amz-Signature=abc&token=1',
      mask: 'multipart-file:abc123:mask',
      element: 'data:image/png;base64,iVBORw0KGgo=',
      layers: [{ element: 'https://u:p@x.example/e.png', color: '#ff0000' }],
      metadata: { api_key: 'rt_live_xyz', note: 'ok', webhook_secret: 'whsec_1', password: 'pw' },
      blob: 'A'.repeat(500),
      output: [{ url: 'http://localhost:3000/files/out/gen_1.webp?expires=1&sig=zz' }],
    });
    expect(redacted).toEqual({
      prompt: 'a green sofa',
      image: 'https://images.example.com/room.jpg?[query redacted]',
      mask: '[uploaded file]',
      element: '[image data redacted]',
      layers: [{ element: 'https://x.example/e.png', color: '#ff0000' }],
      metadata: { api_key: '[redacted]', note: 'ok', webhook_secret: '[redacted]', password: '[redacted]' },
      blob: '[500 characters of encoded data redacted]',
      output: [{ url: 'http://localhost:3000/files/out/gen_1.webp?[query redacted]' }],
    });
  });

  it('cuts long bodies and keeps them valid JSON', () => {
    const text = loggedJson({ data: Array.from({ length: 90 }, (_, i) => ({ id: `gen_${i}`, prompt: 'a green sofa by the window, '.repeat(15) })) })!;
    expect(text.length).toBeLessThan(MAX_LOGGED_JSON + 200);
    expect(JSON.parse(text)).toMatchObject({ truncated: true });
    expect(loggedJson(null)).toBeNull();
  });

  it('keeps a list answer as each item\'s id, object, type and status, and other answers whole', () => {
    const generation = (i: number) => ({ object: 'generation', id: `gen_${i}`, type: 'upscale', status: 'succeeded', output: [{ url: `http://x/files/${i}.webp?sig=s${i}` }], metadata: { api_key: 'k' } });
    expect(JSON.parse(loggedAnswer({ object: 'list', data: [generation(1), generation(2)], has_more: true })!)).toEqual({
      object: 'list',
      data: [
        { id: 'gen_1', object: 'generation', type: 'upscale', status: 'succeeded' },
        { id: 'gen_2', object: 'generation', type: 'upscale', status: 'succeeded' },
      ],
      has_more: true,
    });
    const long = JSON.parse(loggedAnswer({ object: 'list', data: Array.from({ length: 103 }, (_, i) => ({ id: `sty_${i}` })), has_more: false })!) as { data: unknown[] };
    expect(long.data).toHaveLength(101);
    expect(long.data.at(-1)).toBe('[3 more items]');
    // Not a list: whole and redacted, as loggedJson keeps it.
    expect(loggedAnswer(generation(3))).toBe(loggedJson(generation(3)));
    expect(JSON.parse(loggedAnswer(generation(3))!)).toMatchObject({ output: [{ url: 'http://x/files/3.webp?[query redacted]' }], metadata: { api_key: '[redacted]' } });
    expect(loggedAnswer({ object: 'list', data: 'not an array' })).toBe(loggedJson({ object: 'list', data: 'not an array' }));
    expect(loggedAnswer(null)).toBeNull();
  });
});
