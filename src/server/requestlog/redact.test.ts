import { describe, expect, it } from 'vitest';
import { loggedJson, MAX_LOGGED_JSON, redactForLog } from './redact';

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
});
