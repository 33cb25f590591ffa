// @node-lines same: our redaction of JSON for the request log
import { describe, expect, it } from 'vitest';
import { loggedAnswerJson, loggedJson, MAX_LOGGED_JSON, redactForLog } from './redact';

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

  describe('an answer redacted on its JSON text', () => {
    const generation = (i: number, extra: Record<string, unknown> = {}) => ({
      object: 'generation',
      id: `gen_${i}`,
      status: i % 2 ? 'succeeded' : 'in_progress',
      input: { image: 'https://Images.Example.com/room.jpg?X-Amz-Signature=abc', style: 'scandinavian' },
      output: i % 2 ? [{ url: `http://localhost:3000/files/outputs/gen_${i}/0.webp?expires=17&signature=zz${i}`, width: 64 }] : [],
      metadata: { room: 'living' },
      ...extra,
    });
    const page = { object: 'list', data: Array.from({ length: 20 }, (_, i) => generation(i)), has_more: false };
    /** The stored text both ways: on the answer's text, and by the walk of its value. */
    const bothWays = (value: unknown) => [loggedAnswerJson(JSON.stringify(value), value), loggedJson(value)];

    it('redacts URL queries as the walk does, without parsing the text back', () => {
      const [text, walked] = bothWays(page);
      expect(text).toBe(walked);
      expect(text).not.toContain('signature=');
      expect(text).not.toContain('X-Amz-Signature');
      expect(JSON.parse(text!).data[1].output[0].url).toBe('http://localhost:3000/files/outputs/gen_1/0.webp?[query redacted]');
    });

    it('keeps the nesting of an answer it redacts on the text (the walk stops at 8 levels)', () => {
      let deep: unknown = { url: 'https://x.example/a.png?sig=1' };
      for (let i = 0; i < 10; i++) deep = { level: deep };
      const text = loggedAnswerJson(JSON.stringify(deep), deep)!;
      expect(text).toContain('"url":"https://x.example/a.png?[query redacted]"');
      expect(text).not.toContain('sig=1');
      expect(loggedJson(deep)).toContain('[nested too deep]');
    });

    it('takes the walk for secret-like names, image data, uploads, long strings and escapes, with the same result', () => {
      for (const extra of [
        { metadata: { api_key: 'rt_live_xyz' } },
        { webhook_secret: null },
        { input: { element: 'data:image/png;base64,iVBORw0KGgo=' } },
        { input: { mask: 'multipart-file:abc123:mask' } },
        { input: { blob: 'A'.repeat(500) } },
        { input: { prompt: 'a sofa, '.repeat(400) } },
        { input: { prompt: 'a "green" sofa', image: 'https://x.example/a.png?token=1' } },
        { input: { image: 'https://u:p@x.example/e.png' } },
        { note: 'tokens are hidden' },
      ]) {
        const [text, walked] = bothWays({ ...page, data: [generation(1, extra), ...page.data] });
        expect(text).toBe(walked);
      }
      expect(loggedAnswerJson(JSON.stringify({ metadata: { password: 'pw' } }), { metadata: { password: 'pw' } })).toBe('{"metadata":{"password":"[redacted]"}}');
    });

    it('gives a repeated answer the stored text of its first time, and a different one its own', () => {
      const other = { ...page, data: [generation(7, { metadata: { api_key: 'rt_live_xyz' } })] };
      const first = loggedAnswerJson(JSON.stringify(page), page);
      expect(loggedAnswerJson(JSON.stringify(page), page)).toBe(first);
      expect(loggedAnswerJson(JSON.stringify(other), other)).toBe(loggedJson(other));
      expect(loggedAnswerJson(JSON.stringify(other), other)).toContain('"api_key":"[redacted]"');
      expect(loggedAnswerJson(JSON.stringify(page), page)).toBe(loggedJson(page));
    });

    it('cuts a long answer like any line', () => {
      const long = { data: Array.from({ length: 100 }, (_, i) => generation(i)) };
      const [text, walked] = bothWays(long);
      expect(text).toBe(walked);
      expect(JSON.parse(text!)).toMatchObject({ truncated: true });
      expect(loggedAnswerJson('null', null)).toBeNull();
    });
  });

  it('redacts a link seen before with another query as a link seen for the first time', () => {
    // Each pair: a link, then the same text before its `?` with another query (the second is answered from the first's parse).
    const links: [string, string, string][] = [
      ['http://localhost:3000/files/outputs/gen_1/0.webp?expires=17&signature=aa', 'http://localhost:3000/files/outputs/gen_1/0.webp?expires=18&signature=bb', 'http://localhost:3000/files/outputs/gen_1/0.webp?[query redacted]'],
      ['HTTPS://u:p@Images.Example.COM:443/a/../b%7e c?x=1', 'HTTPS://u:p@Images.Example.COM:443/a/../b%7e c?y=2&z=3', 'https://images.example.com/b%7e%20c?[query redacted]'],
      ['https://x.example/a?sig=1', 'https://x.example/a? sig=1', 'https://x.example/a?[query redacted]'],
      ['https://x.example/a?sig=1', 'https://x.example/a?', 'https://x.example/a'],
      ['https://x.example/a?sig=1', 'https://x.example/a?#frag', 'https://x.example/a'],
      ['https://x.example/a?sig=1', 'https://x.example/a?\t', 'https://x.example/a'],
      ['https://exa mple.com/a?sig=1', 'https://exa mple.com/a?sig=2', '[url redacted]'],
    ];
    for (const [first, second, expected] of links) {
      expect(redactForLog(first)).toBe(expected.startsWith('https://x.example/a') ? 'https://x.example/a?[query redacted]' : expected);
      expect(redactForLog(second)).toBe(expected);
    }
  });
});
