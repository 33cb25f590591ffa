import { describe, expect, it } from 'vitest';

import { MAX_IMAGE_BYTES } from '@/server/capabilities/images/intake';
import { DomainError } from '@/server/platform/errors';
import type { ApiError } from '@/server/doors/errors';
import { toHttpError } from '@/server/doors/errors';
import { MAX_TEXT_FIELDS_BYTES, parseMultipart } from './multipart';

/**
 * The form encoded to bytes first: a Request whose body is a FormData keeps feeding its stream
 * after the parser has refused the request and cancelled it, which Node 24's undici reports as
 * an unhandled "ReadableStream is already closed" (servers receive bytes, never a FormData).
 */
async function formRequest(form: FormData): Promise<Request> {
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  return new Request('http://localhost/v1/edits', { method: 'POST', body, headers: { 'content-type': encoded.headers.get('content-type')! } });
}

function rawRequest(body: string | Uint8Array | ReadableStream<Uint8Array>, contentType: string): Request {
  return new Request('http://localhost/v1/edits', {
    method: 'POST',
    body,
    headers: { 'content-type': contentType },
    // Required by undici for stream bodies.
    duplex: 'half',
  } as RequestInit);
}

function blob(bytes: number | Uint8Array, type = 'image/png'): Blob {
  return new Blob([typeof bytes === 'number' ? new Uint8Array(bytes) : new Uint8Array(bytes)], { type });
}

async function expectRefused(p: Promise<unknown>, status: number, code: string, param?: string): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  const e = toHttpError(err as DomainError);
  expect({ status: e.status, code: e.code, param: e.param }).toEqual({ status, code, param });
  return e;
}

describe('parseMultipart: accepted bodies', () => {
  it('returns text fields and the five allowed files', async () => {
    const form = new FormData();
    form.set('mode', 'mask');
    form.set('quality', '2k');
    form.set('layers', JSON.stringify([{ mask_color: '#FF0000', action: 'remove' }]));
    form.set('metadata', '{"order":"é 漢字 🌿"}');
    form.set('image', blob(Uint8Array.from([1, 2, 3])), 'photo.jpg');
    form.set('mask', blob(Uint8Array.from([4, 5])), 'mask.png');
    form.set('layers[0].element', blob(10), 'a.png');
    form.set('layers[1].element', blob(11), 'b.png');
    form.set('layers[2].element', blob(12), 'c.png');
    const { fields, files } = await parseMultipart(await formRequest(form));
    expect({ ...fields }).toEqual({
      mode: 'mask',
      quality: '2k',
      layers: '[{"mask_color":"#FF0000","action":"remove"}]',
      metadata: '{"order":"é 漢字 🌿"}',
    });
    expect(Object.keys(files).sort()).toEqual(['image', 'layers[0].element', 'layers[1].element', 'layers[2].element', 'mask']);
    expect([...(files.image ?? [])]).toEqual([1, 2, 3]);
    expect(files['layers[2].element']?.length).toBe(12);
  });

  it('mixes forms: file image, URL mask in a text field', async () => {
    const form = new FormData();
    form.set('image', blob(5), 'x.webp');
    form.set('mask', 'https://cdn.example.com/mask.png');
    const { fields, files } = await parseMultipart(await formRequest(form));
    expect(fields.mask).toBe('https://cdn.example.com/mask.png');
    expect(files.image?.length).toBe(5);
    expect(files.mask).toBeUndefined();
  });

  it('a file of exactly 10 MB is accepted', async () => {
    const form = new FormData();
    form.set('image', blob(MAX_IMAGE_BYTES), 'big.png');
    const { files } = await parseMultipart(await formRequest(form));
    expect(files.image?.length).toBe(MAX_IMAGE_BYTES);
  });

  it('a field named __proto__ is just a key', async () => {
    const form = new FormData();
    form.set('__proto__', 'x');
    const { fields } = await parseMultipart(await formRequest(form));
    expect(fields.__proto__).toBe('x');
    expect(Object.getPrototypeOf(fields)).toBeNull();
  });
});

describe('parseMultipart: refusals', () => {
  it('a file under another field name → 400 parameter_invalid naming it', async () => {
    for (const name of ['photo', 'layers[3].element', 'layers[0].mask', 'images', 'layers[0].element.x']) {
      const form = new FormData();
      form.set(name, blob(4), 'x.png');
      await expectRefused(parseMultipart(await formRequest(form)), 400, 'parameter_invalid', name);
    }
  });

  it('the same file field twice → 400 parameter_invalid', async () => {
    const form = new FormData();
    form.append('image', blob(4), 'a.png');
    form.append('image', blob(4), 'b.png');
    await expectRefused(parseMultipart(await formRequest(form)), 400, 'parameter_invalid', 'image');
  });

  it('a text field twice, or text and file under one name → 400 parameter_invalid', async () => {
    const twice = new FormData();
    twice.append('mode', 'mask');
    twice.append('mode', 'prompt');
    await expectRefused(parseMultipart(await formRequest(twice)), 400, 'parameter_invalid', 'mode');
    const mixed = new FormData();
    mixed.append('image', 'https://example.com/a.png');
    mixed.append('image', blob(3), 'a.png');
    await expectRefused(parseMultipart(await formRequest(mixed)), 400, 'parameter_invalid', 'image');
  });

  it('10 MB + 1 byte file → 413 image_too_large with the field as param', async () => {
    const form = new FormData();
    form.set('mode', 'prompt');
    form.set('layers[1].element', blob(MAX_IMAGE_BYTES + 1), 'big.png');
    await expectRefused(parseMultipart(await formRequest(form)), 413, 'image_too_large', 'layers[1].element');
  });

  it('text fields over 64 KB in total → 413 request_too_large', async () => {
    const one = new FormData();
    one.set('metadata', 'x'.repeat(MAX_TEXT_FIELDS_BYTES + 1));
    await expectRefused(parseMultipart(await formRequest(one)), 413, 'request_too_large');
    const many = new FormData();
    for (let i = 0; i < 5; i++) many.set(`f${i}`, 'y'.repeat(14 * 1024)); // 70 KB together
    await expectRefused(parseMultipart(await formRequest(many)), 413, 'request_too_large');
    // Just under the limit is fine (names count too).
    const fits = new FormData();
    fits.set('p', 'z'.repeat(MAX_TEXT_FIELDS_BYTES - 1));
    await expect(parseMultipart(await formRequest(fits))).resolves.toBeDefined();
  });

  it('more than five files → 413 request_too_large', async () => {
    const form = new FormData();
    for (const name of ['image', 'mask', 'layers[0].element', 'layers[1].element', 'layers[2].element']) {
      form.set(name, blob(2), 'x.png');
    }
    form.append('layers[2].element', blob(2), 'y.png');
    await expectRefused(parseMultipart(await formRequest(form)), 413, 'request_too_large');
  });

  it('malformed multipart → 400 parameter_invalid', async () => {
    const cases: Array<[string | Uint8Array, string]> = [
      ['garbage', 'multipart/form-data; boundary=XYZ'],
      // Cut off before the closing boundary.
      ['--XYZ\r\nContent-Disposition: form-data; name="mode"\r\n\r\nmask\r\n--XYZ\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nabc', 'multipart/form-data; boundary=XYZ'],
      ['--XYZ--\r\n', 'multipart/form-data'], // no boundary parameter
      ['{"a":1}', 'application/json'],
      ['', 'multipart/form-data; boundary=XYZ'],
    ];
    for (const [body, type] of cases) {
      await expectRefused(parseMultipart(rawRequest(body, type)), 400, 'parameter_invalid');
    }
  });

  it('a well-formed hand-written body parses', async () => {
    const body =
      '--XYZ\r\nContent-Disposition: form-data; name="mode"\r\n\r\nmask\r\n' +
      '--XYZ\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/jpeg\r\n\r\nabc\r\n' +
      '--XYZ--\r\n';
    const { fields, files } = await parseMultipart(rawRequest(body, 'multipart/form-data; boundary=XYZ'));
    expect(fields.mode).toBe('mask');
    expect(files.image?.toString()).toBe('abc');
  });

  it('a declared Content-Length beyond any valid body is refused before reading', async () => {
    const req = new Request('http://localhost/v1/edits', {
      method: 'POST',
      body: 'x',
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ', 'content-length': String(200 * 1024 * 1024) },
    });
    await expectRefused(parseMultipart(req), 413, 'request_too_large');
  });
});

describe('parseMultipart: streaming', () => {
  /** A body whose image part would be `fileBytes` long, produced lazily; counts what was pulled. */
  function streamedBody(fileBytes: number) {
    const enc = new TextEncoder();
    const head = enc.encode(
      '--B0undary\r\nContent-Disposition: form-data; name="mode"\r\n\r\nprompt\r\n' +
        '--B0undary\r\nContent-Disposition: form-data; name="image"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n',
    );
    const tail = enc.encode('\r\n--B0undary--\r\n');
    const chunk = new Uint8Array(256 * 1024).fill(0x41);
    const stats = { pulled: 0, cancelled: false };
    let sentHead = false;
    let sentFile = 0;
    let sentTail = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          let piece: Uint8Array;
          if (!sentHead) {
            sentHead = true;
            piece = head;
          } else if (sentFile < fileBytes) {
            piece = chunk.subarray(0, Math.min(chunk.length, fileBytes - sentFile));
            sentFile += piece.length;
          } else if (!sentTail) {
            sentTail = true;
            piece = tail;
          } else {
            controller.close();
            return;
          }
          stats.pulled += piece.length;
          controller.enqueue(piece);
        },
        cancel() {
          stats.cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    return { stream, stats };
  }

  it('stops early on a streamed 50 MB file: reads barely more than 10 MB and cancels the body', async () => {
    const { stream, stats } = streamedBody(50 * 1024 * 1024);
    await expectRefused(parseMultipart(rawRequest(stream, 'multipart/form-data; boundary=B0undary')), 413, 'image_too_large', 'image');
    expect(stats.pulled).toBeLessThan(MAX_IMAGE_BYTES + 2 * 1024 * 1024);
    expect(stats.cancelled).toBe(true);
  });

  it('the same stream with a 3 MB file is parsed completely', async () => {
    const { stream, stats } = streamedBody(3 * 1024 * 1024);
    const { fields, files } = await parseMultipart(rawRequest(stream, 'multipart/form-data; boundary=B0undary'));
    expect(fields.mode).toBe('prompt');
    expect(files.image?.length).toBe(3 * 1024 * 1024);
    expect(stats.cancelled).toBe(false);
  });
});
