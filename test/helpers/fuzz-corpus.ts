/**
 * The seeded corpus of hostile requests for test/fuzz.test.ts (a module of its own so a failing
 * case can be printed and replayed outside the test).
 */
import { serverAddress } from '../raw-http';

/** The engine's seeded generator (mulberry32): the corpus only picks from lists. */
export { rng as prng } from '@/server/capabilities/engine/builtin/noise';


const ROUTES = [
  '/v1/renders', '/v1/edits', '/v1/decorations', '/v1/upscales', '/v1/generations', '/v1/generations/gen_0000000000000000000000',
  '/v1/generations/gen_0000000000000000000000/cancel', '/v1/generations/mat_oak/cancel', '/v1/styles', '/v1/edit-materials',
  '/v1/edit-material-categories', '/v1/openapi.json', '/v1', '/v1/nope', '/files/a/b.webp', '/swatches/mat_oak_herringbone',
  '/healthz', '/readyz', '/metrics', '/', '/nope',
];
const PATH_SUFFIXES = ['', '/', '//', '/%E0%A4%A', '/%00', '/%2e%2e/%2e%2e/etc/passwd', '/..', '/%ff%fe', `/${'a'.repeat(3000)}`, '/%F0%9F%8F%A0', '/;x=1', '/%', '/\u00e9'];
const QUERIES = ['', '?limit=-1', '?limit=abc', '?limit=100000000000000000000', '?after=%E0%A4%A', '?after=gen_%00', '?type[]=x&type=render', '?status=in_progress&status=failed', '?size=99999', '?expires=1&signature=x', '?%', '?a=%E0', `?q=${'x'.repeat(5000)}`, '?search=%27%20or%201=1--', '?category=__proto__'];
const METHODS = ['GET', 'GET', 'POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND'];
const hosts = (own: string) => [own, own, own, '', 'bad host', 'localhost:99999', `${own}/v1/generations?limit=1#`, 'h/p', 'evil.invalid', '[::1', 'a'.repeat(300)];
const TARGET_FORMS = ['path', 'path', 'path', 'path', 'absolute-own', 'absolute-foreign', 'star'];
const imageUrls = (baseUrl: string, own: string): unknown[] => [
  `${baseUrl}/files/%E0%A4%A`, `${baseUrl}/files/a/b.webp?expires=1&signature=x`, `http://${own}/files/x`, 'https://127.0.0.1:444/x.png', 'https://10.0.0.1/x.png',
  'https://[::1]/x.png', 'https://169.254.169.254/latest/meta-data', 'data:image/png;base64,iVBORw0KGgo=', 'ftp://example.com/x.png', 'https://', 'https://%E0%A4%A/',
  `https://example.invalid/${'a'.repeat(2100)}`, 'https://user:pass@example.invalid/x.png', 'https://example.invalid:0/x.png', 'file_0000', 'file:///etc/passwd', '', ' ', 42, null, ['x'], { url: 'x' },
];
const JSON_BODIES: (() => string)[] = [
  () => '{', () => '{"image":', () => 'null', () => '[]', () => '"x"', () => '1e999', () => '{"a":'.repeat(3000), () => '{"__proto__":{"x":1}}',
  () => '{"constructor":{"prototype":{}}}', () => `{"image":"${'\\u0000'.repeat(10)}"}`, () => '\ufeff{}', () => '{"image":"x"}garbage', () => '\u0000',
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

function creationBody(rand: () => number, IMAGE_URLS: unknown[]): string {
  const fields: Record<string, unknown> = {};
  const options: [string, unknown[]][] = [
    ['image', IMAGE_URLS], ['mask', IMAGE_URLS], ['quality', ['1k', '8k', '16k', '', 1, null]], ['scale', ['x2', 'x4', 'x3', 2, null]],
    ['mode', ['mask', 'prompt', 'x', null]], ['prompt', ['paint it', '', '\u200b', 'a'.repeat(1100), 7]], ['style', ['sty_x', '', null, {}]],
    ['layers', [[], [{}], [{ mask_color: '#FF0000', action: 'modify', color: '#GGGGGG' }], [{ mask_color: '#FF0000', action: 'add', element: 'https://10.0.0.1/e.png' }], 'x', Array(50).fill({})]],
    ['metadata', [{}, { a: 'b' }, { ['k'.repeat(50)]: 'v' }, Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'v'])), { a: { b: 1 } }, []]],
    ['background', [true, 'true', 1, null]], ['categories', [['plants'], ['nope'], 'plants', [1]]], ['unknown_field', [1]],
  ];
  for (const [name, values] of options) if (rand() < 0.5) fields[name] = pick(rand, values);
  // Always background when a creation could be accepted: the fuzz must not wait on the engine.
  if ('image' in fields) fields.background = true;
  return JSON.stringify(fields);
}

function multipartBody(rand: () => number, boundary: string): string {
  const parts: string[] = [];
  const fieldNames = ['image', 'mask', 'layers[0].element', 'layers[9].element', 'scale', 'quality', 'layers', 'metadata', 'background', '__proto__', '', 'a"b'];
  const count = Math.floor(rand() * 5);
  for (let i = 0; i < count; i++) {
    const name = pick(rand, fieldNames);
    const asFile = rand() < 0.5;
    const content = pick(rand, ['x2', 'true', '{"a":', '[{}]', '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR', 'GIF89a', 'https://10.0.0.1/a.png', '']);
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${asFile ? '; filename="f.png"\r\nContent-Type: image/png' : ''}\r\n\r\n${content}\r\n`);
  }
  if (rand() < 0.5) parts.push('background: true\r\n');
  if (rand() < 0.8) parts.push(`--${boundary}--\r\n`);
  return parts.join('');
}

export interface FuzzCase {
  label: string;
  bytes: string;
}

export function fuzzCase(rand: () => number, baseUrl: string, keys: string[], ip: string): FuzzCase {
  const { host, port } = serverAddress(baseUrl);
  const own = `${host}:${port}`;
  const HOSTS = hosts(own);
  const IMAGE_URLS = imageUrls(baseUrl, own);
  const method = pick(rand, METHODS);
  let path = `${pick(rand, ROUTES)}${rand() < 0.3 ? pick(rand, PATH_SUFFIXES) : ''}${rand() < 0.4 ? pick(rand, QUERIES) : ''}`;
  const form = pick(rand, TARGET_FORMS);
  if (form === 'absolute-own') path = `${baseUrl}${path}`;
  else if (form === 'absolute-foreign') path = `http://evil.invalid${path}`;
  else if (form === 'star') path = '*';
  const headers: [string, string][] = [['Host', pick(rand, HOSTS)], ['X-Forwarded-For', rand() < 0.9 ? ip : pick(rand, ['', 'garbage', '::1, 1.1.1.1', '999.1.1.1'])]];
  if (rand() < 0.8) headers.push(['Authorization', rand() < 0.85 ? `Bearer ${pick(rand, keys)}` : pick(rand, ['Bearer', 'Bearer rt_test_x', 'Basic Zm9v', `Bearer ${'a'.repeat(5000)}`])]);
  if (rand() < 0.05) headers.push(['Origin', 'https://example.com']);
  if (rand() < 0.1) headers.push(['Idempotency-Key', pick(rand, ['', 'k'.repeat(300), 'é', 'ok-key'])]);
  if (rand() < 0.05) headers.push(['Expect', pick(rand, ['100-continue', 'teapot'])]);
  if (rand() < 0.05) headers.push(['x-roomtone-client-ip', '1.2.3.4']);
  let body = '';
  if (method !== 'GET' && method !== 'HEAD' && rand() < 0.85) {
    const kind = rand();
    if (kind < 0.45) {
      headers.push(['Content-Type', pick(rand, ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'])]);
      body = rand() < 0.6 ? creationBody(rand, IMAGE_URLS) : pick(rand, JSON_BODIES)();
    } else if (kind < 0.8) {
      const boundary = pick(rand, ['XyZ', 'a'.repeat(80), '-']);
      headers.push(['Content-Type', pick(rand, [`multipart/form-data; boundary=${boundary}`, 'multipart/form-data', `multipart/form-data; boundary="${boundary}"`])]);
      body = multipartBody(rand, boundary);
    } else {
      headers.push(['Content-Type', pick(rand, ['text/plain', 'application/x-www-form-urlencoded', '', 'garbage/\u00ff'])]);
      body = pick(rand, ['image=x', '\u0000\u0001', 'x'.repeat(70_000)]);
    }
  }
  const chunked = body !== '' && rand() < 0.15;
  if (chunked) headers.push(['Transfer-Encoding', 'chunked']);
  else if (body !== '' || rand() < 0.5) headers.push(['Content-Length', String(Buffer.byteLength(body))]);
  headers.push(['Connection', 'close']);
  const wireBody = chunked ? `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n` : body;
  const head = `${method} ${path} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}`).join('\r\n')}\r\n\r\n`;
  return { label: `${method} ${path.slice(0, 120)} [${headers.map(([n]) => n).join(',')}] body ${body.slice(0, 120)}`, bytes: head + wireBody };
}

