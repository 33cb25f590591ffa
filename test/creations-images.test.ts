// @node-lines same: our input-image rules; downloads over TLS run under both lines in src/server/capabilities/net/safe-http.test.ts and src/server/capabilities/images/intake.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * Spec "Input images": every rule of the table (formats, size, dimensions, JSON and multipart
 * bodies, URL shape, download rules), with the exact status, code and param, through the real
 * server. Upscales (cheap, real in both modes) carry most checks; edits are used where an
 * upscale has extra rules of its own (large images) or where mask / element fields are needed.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestOrg, testIp, type TestOrg } from './support';
import {
  GIF_1X1,
  bilevelPng,
  expectAccepted,
  expectError,
  expectNoInputsLeft,
  restoreServedFiles,
  form,
  halves,
  imageOrigin,
  inputDirectories,
  ledgerSnapshot,
  maskPng,
  noiseImage,
  post,
  serve,
  serveFile,
  servedUrl,
  solidImage,
  waitForEnd,
  type ApiGeneration,
} from './images-support';

const ip = testIp();
const MiB = 1024 * 1024;

let org: TestOrg;
let photo: Buffer; // 320×240 JPEG
let photoUrl: string;
let photoName: string;

beforeAll(async () => {
  org = await createTestOrg();
  photo = await noiseImage(320, 240, 'jpeg');
  photoName = serveFile(photo, 'jpg');
  photoUrl = servedUrl(photoName);
});

// The served files live in a directory other test runs may empty.
beforeEach(() => restoreServedFiles());

function upscale(image: string, key = org.testKey) {
  return post('/v1/upscales', key, ip, { image, scale: 'x2', background: true });
}

/** A buffer of exactly `size` bytes that starts as a valid JPEG (padding after its end). */
function paddedJpeg(jpeg: Buffer, size: number): Buffer {
  const out = Buffer.alloc(size, 0);
  jpeg.copy(out);
  return out;
}

describe('Input images: URLs in JSON', () => {
  it('accepts an https URL (202 in background)', async () => {
    await expectAccepted(await upscale(photoUrl), org.testKey, ip, 'upscale');
  });

  it.each([
    ['http URL', 'http://127.0.0.1/photo.jpg'],
    ['ftp URL', 'ftp://127.0.0.1/photo.jpg'],
    ['bare file name', 'photo.jpg'],
    ['protocol-relative', '//127.0.0.1/photo.jpg'],
    ['empty string', ''],
  ])('refuses a value that is neither an https URL nor a file (%s): 400 parameter_invalid image', async (_what, value) => {
    expectError(await upscale(value), 400, 'parameter_invalid', 'image');
  });

  it('refuses a non-string image value: 400 parameter_invalid image', async () => {
    expectError(await post('/v1/upscales', org.testKey, ip, { image: 42, scale: 'x2', background: true }), 400, 'parameter_invalid', 'image');
  });

  it('refuses a base64 data URI: 400 parameter_invalid image', async () => {
    const dataUri = `data:image/jpeg;base64,${photo.toString('base64')}`;
    expectError(await upscale(dataUri), 400, 'parameter_invalid', 'image');
    const png = `data:image/png;base64,${(await solidImage(8, 8)).toString('base64')}`;
    expectError(await upscale(png), 400, 'parameter_invalid', 'image');
  });

  it('accepts a URL of exactly 2048 characters and refuses 2049 (400 parameter_invalid image)', async () => {
    const base = `${photoUrl}?pad=`;
    const exact = base + 'a'.repeat(2048 - base.length);
    expect(exact.length).toBe(2048);
    await expectAccepted(await upscale(exact), org.testKey, ip, 'upscale');
    expectError(await upscale(`${exact}a`), 400, 'parameter_invalid', 'image');
  });

  it('refuses a port other than 443: 400 image_url_unreachable image', async () => {
    expectError(await upscale(`https://127.0.0.1:8443/${photoName}`), 400, 'image_url_unreachable', 'image');
    expectError(await upscale(`${imageOrigin}:444/${photoName}`), 400, 'image_url_unreachable', 'image');
  });

  it('accepts an explicit :443', async () => {
    await expectAccepted(await upscale(`${imageOrigin}:443/${photoName}`), org.testKey, ip, 'upscale');
  });

  it.each([
    'https://10.0.0.1/x.jpg',
    'https://192.168.1.1/x.jpg',
    'https://172.16.0.1/x.jpg',
    'https://169.254.169.254/latest/meta-data',
    'https://127.0.0.2/x.jpg',
    'https://0.0.0.0/x.jpg',
    'https://[fd00::1]/x.jpg',
    'https://[::ffff:10.0.0.1]/x.jpg',
    'https://100.64.0.1/x.jpg',
  ])('refuses a private or local address %s at once: 400 image_url_unreachable image', async (url) => {
    const started = Date.now();
    expectError(await upscale(url), 400, 'image_url_unreachable', 'image');
    // Refused before connecting, not after a connection attempt times out.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it.each([404, 403, 500, 410])('refuses an error response (%i): 400 image_url_unreachable image', async (status) => {
    expectError(await upscale(`${imageOrigin}/status/${status}`), 400, 'image_url_unreachable', 'image');
  });

  it('follows 5 redirects', async () => {
    await expectAccepted(await upscale(servedUrl(photoName, 'redirect/5')), org.testKey, ip, 'upscale');
  });

  it('refuses 6 redirects: 400 image_url_unreachable image', async () => {
    expectError(await upscale(servedUrl(photoName, 'redirect/6')), 400, 'image_url_unreachable', 'image');
  });

  it('never follows https to http: 400 image_url_unreachable image', async () => {
    expectError(await upscale(servedUrl(photoName, 'to-http')), 400, 'image_url_unreachable', 'image');
  });

  it('refuses a redirect to a private address: 400 image_url_unreachable image', async () => {
    const started = Date.now();
    expectError(await upscale(servedUrl(photoName, 'to-private')), 400, 'image_url_unreachable', 'image');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  // The spec's 30 s is DOWNLOAD_DEADLINE_MS's default (safe-http.test.ts); the test server sets
  // 15 s (test/global-setup.ts), so this waits half as long for the same refusal.
  it('gives up on a server that never answers within the download deadline (30 s; 15 s here): 400 image_url_unreachable image', { timeout: 90_000 }, async () => {
    const started = Date.now();
    expectError(await upscale(`${imageOrigin}/hang`), 400, 'image_url_unreachable', 'image');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(25_000);
    expect(elapsed).toBeGreaterThanOrEqual(15_000 - 100);
  });

  it('stops reading an endless body at 10 MB: 413 image_too_large image, quickly', async () => {
    const started = Date.now();
    expectError(await upscale(`${imageOrigin}/endless`), 413, 'image_too_large', 'image');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuses a served image over 10 MB: 413 image_too_large image', async () => {
    const big = paddedJpeg(photo, 10 * MiB + 1);
    expectError(await upscale(serve(big, 'jpg')), 413, 'image_too_large', 'image');
  });

  it('accepts a served image of 10,000,000 bytes (10 MB under either reading)', async () => {
    const big = paddedJpeg(photo, 10_000_000);
    await expectAccepted(await upscale(serve(big, 'jpg')), org.testKey, ip, 'upscale');
  });

  it('refuses an HTML document: 415 unsupported_image_type image', async () => {
    const name = serveFile('<!doctype html><html><body><img src="photo.jpg"></body></html>', 'html');
    expectError(await upscale(servedUrl(name, 'as-html')), 415, 'unsupported_image_type', 'image');
    // Even when the name looks like an image.
    const disguised = serveFile('<!doctype html><html><body>not an image</body></html>', 'jpg');
    expectError(await upscale(servedUrl(disguised)), 415, 'unsupported_image_type', 'image');
  });

  it('refuses a GIF: 415 unsupported_image_type image', async () => {
    expectError(await upscale(serve(GIF_1X1, 'gif')), 415, 'unsupported_image_type', 'image');
    expectError(await upscale(serve(GIF_1X1, 'png')), 415, 'unsupported_image_type', 'image');
  });

  it('recognises the format from content: a PNG named .jpg and served as text/html is accepted', async () => {
    const name = serveFile(await noiseImage(200, 150, 'png'), 'jpg');
    await expectAccepted(await upscale(servedUrl(name, 'as-html')), org.testKey, ip, 'upscale');
  });

  it('accepts WebP and PNG', async () => {
    await expectAccepted(await upscale(serve(await noiseImage(200, 150, 'webp'), 'webp')), org.testKey, ip, 'upscale');
    await expectAccepted(await upscale(serve(await noiseImage(200, 150, 'png'), 'png')), org.testKey, ip, 'upscale');
  });

  it.each([
    [8193, 10],
    [10, 8193],
    [6001, 6001],
  ])('refuses %i×%i: 400 image_dimensions_invalid image', async (w, h) => {
    expectError(await upscale(serve(bilevelPng(w, h), 'png')), 400, 'image_dimensions_invalid', 'image');
  });

  it.each([
    [8192, 10],
    [6000, 6000],
  ])('accepts %i×%i (at the limits) as an edit image', async (w, h) => {
    const res = await post('/v1/edits', org.testKey, ip, { image: serve(bilevelPng(w, h), 'png'), mode: 'prompt', quality: '1k', prompt: 'Paint the walls white', background: true });
    await expectAccepted(res, org.testKey, ip, 'edit');
  });

  it('refuses a decompression bomb (20000×20000 single colour PNG) fast: 400 image_dimensions_invalid image', async () => {
    const bomb = bilevelPng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    expectError(await upscale(serve(bomb, 'png')), 400, 'image_dimensions_invalid', 'image');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a truncated JPEG: 400 image_unreadable image', async () => {
    const cut = photo.subarray(0, Math.floor(photo.length * 0.6));
    expectError(await upscale(serve(cut, 'jpg')), 400, 'image_unreadable', 'image');
  });

  it('refuses a PNG cut after its header: 400 image_unreadable image', async () => {
    const png = await noiseImage(200, 150, 'png');
    expectError(await upscale(serve(png.subarray(0, 100), 'png')), 400, 'image_unreadable', 'image');
  });

  it('names the mask and layers[0].element fields in download errors', async () => {
    const image = serve(await noiseImage(640, 480), 'jpg');
    const mask = serve(await maskPng(640, 480, halves(640, 480, '#FF0000')), 'png');
    const badMask = await post('/v1/edits', org.testKey, ip, {
      image,
      mode: 'mask',
      quality: '1k',
      mask: `${imageOrigin}/status/404`,
      layers: [{ mask_color: '#FF0000', action: 'remove' }],
      background: true,
    });
    expectError(badMask, 400, 'image_url_unreachable', 'mask');
    const badElement = await post('/v1/edits', org.testKey, ip, {
      image,
      mode: 'mask',
      quality: '1k',
      mask,
      layers: [{ mask_color: '#FF0000', action: 'add', element: `${imageOrigin}/status/404` }],
      background: true,
    });
    expectError(badElement, 400, 'image_url_unreachable', 'layers[0].element');
    const gifElement = await post('/v1/edits', org.testKey, ip, {
      image,
      mode: 'mask',
      quality: '1k',
      mask,
      layers: [{ mask_color: '#FF0000', action: 'replace', element: serve(GIF_1X1, 'gif') }],
      background: true,
    });
    expectError(gifElement, 415, 'unsupported_image_type', 'layers[0].element');
    const dataElement = await post('/v1/edits', org.testKey, ip, {
      image,
      mode: 'mask',
      quality: '1k',
      mask,
      layers: [{ mask_color: '#FF0000', action: 'replace', element: `data:image/png;base64,${(await solidImage(8, 8)).toString('base64')}` }],
      background: true,
    });
    expectError(dataElement, 400, 'parameter_invalid', 'layers[0].element');
  });
});

describe('Input images: multipart/form-data', () => {
  it('accepts a file as image', async () => {
    const res = await post('/v1/upscales', org.testKey, ip, form([['image', photo], ['scale', 'x2'], ['background', 'true']]));
    await expectAccepted(res, org.testKey, ip, 'upscale');
  });

  it('accepts a URL in a text field', async () => {
    const res = await post('/v1/upscales', org.testKey, ip, form([['image', photoUrl], ['scale', 'x2'], ['background', 'true']]));
    await expectAccepted(res, org.testKey, ip, 'upscale');
  });

  it('accepts mixed forms: file image, URL mask, file element', async () => {
    const image = await noiseImage(640, 480);
    const maskUrl = serve(await maskPng(640, 480, halves(640, 480, '#FF0000', '#0066FF')), 'png');
    const layers = JSON.stringify([
      { mask_color: '#FF0000', action: 'remove' },
      { mask_color: '#0066FF', action: 'add' },
    ]);
    const res = await post(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['image', image],
        ['mode', 'mask'],
        ['quality', '1k'],
        ['mask', maskUrl],
        ['layers', layers],
        ['layers[1].element', await noiseImage(120, 120, 'png')],
        ['background', 'true'],
      ]),
    );
    const gen = await expectAccepted(res, org.testKey, ip, 'edit');
    expect(gen.input).toEqual({
      quality: '1k',
      scale: null,
      mode: 'mask',
      layers: [
        { mask_color: '#FF0000', action: 'remove' },
        { mask_color: '#0066FF', action: 'add' },
      ],
    });
  });

  it('refuses a file under another field name: 400 parameter_invalid naming it', async () => {
    const res = await post('/v1/upscales', org.testKey, ip, form([['photo', photo], ['scale', 'x2'], ['background', 'true']]));
    expectError(res, 400, 'parameter_invalid', 'photo');
    const element = await post('/v1/upscales', org.testKey, ip, form([['image', photo], ['thumbnail', photo], ['scale', 'x2'], ['background', 'true']]));
    expectError(element, 400, 'parameter_invalid', 'thumbnail');
  });

  it('refuses image sent twice as files: 400 parameter_invalid image', async () => {
    const res = await post('/v1/upscales', org.testKey, ip, form([['image', photo], ['image', photo], ['scale', 'x2'], ['background', 'true']]));
    expectError(res, 400, 'parameter_invalid', 'image');
  });

  it('refuses image sent as a file and as a text field: 400 parameter_invalid image', async () => {
    const fileFirst = await post('/v1/upscales', org.testKey, ip, form([['image', photo], ['image', photoUrl], ['scale', 'x2'], ['background', 'true']]));
    expectError(fileFirst, 400, 'parameter_invalid', 'image');
    const textFirst = await post('/v1/upscales', org.testKey, ip, form([['image', photoUrl], ['image', photo], ['scale', 'x2'], ['background', 'true']]));
    expectError(textFirst, 400, 'parameter_invalid', 'image');
  });

  it('a refusal made before the body is read reaches the client, and the connection stays usable', async () => {
    // Megabytes still on their way when the server answers: the rest is drained, not reset
    // (a reset reached the client as ECONNRESET, on this request or on the next one sent over
    // the same kept-alive connection).
    const big = paddedJpeg(photo, 3 * MiB);
    for (let i = 0; i < 4; i++) {
      const refused = await post('/v1/upscales', org.testKey, ip, form([['image', photoUrl], ['image', big], ['scale', 'x2'], ['background', 'true']]));
      expectError(refused, 400, 'parameter_invalid', 'image');
      const unknownKey = await post('/v1/upscales', 'rt_test_0000000000000000000000000000', ip, form([['image', big], ['scale', 'x2'], ['background', 'true']]));
      expectError(unknownKey, 401, 'api_key_invalid');
      const next = await post('/v1/upscales', org.testKey, ip, form([['image', photo], ['image', photo], ['scale', 'x2'], ['background', 'true']]));
      expectError(next, 400, 'parameter_invalid', 'image');
    }
  });

  it('refuses a layer element sent as a file and in layers: 400 parameter_invalid layers[0].element', async () => {
    const image = await noiseImage(640, 480);
    const mask = await maskPng(640, 480, halves(640, 480, '#FF0000'));
    const element = await noiseImage(100, 100, 'png');
    const res = await post(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['image', image],
        ['mode', 'mask'],
        ['quality', '1k'],
        ['mask', mask],
        ['layers', JSON.stringify([{ mask_color: '#FF0000', action: 'add', element: serve(element, 'png') }])],
        ['layers[0].element', element],
        ['background', 'true'],
      ]),
    );
    expectError(res, 400, 'parameter_invalid', 'layers[0].element');
  });

  it('refuses more than five files: 413 request_too_large', async () => {
    const small = await solidImage(16, 16);
    const res = await post(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['mode', 'mask'],
        ['quality', '1k'],
        ['image', small],
        ['mask', small],
        ['layers[0].element', small],
        ['layers[1].element', small],
        ['layers[2].element', small],
        ['layers[3].element', small],
      ]),
    );
    expectError(res, 413, 'request_too_large');
  });

  it('refuses a file over 10 MB: 413 image_too_large image', async () => {
    const res = await post('/v1/upscales', org.testKey, ip, form([['scale', 'x2'], ['background', 'true'], ['image', paddedJpeg(photo, 10 * MiB + 1)]]));
    expectError(res, 413, 'image_too_large', 'image');
  });

  it('accepts a file of 10,000,000 bytes', async () => {
    const res = await post('/v1/upscales', org.testKey, ip, form([['scale', 'x2'], ['background', 'true'], ['image', paddedJpeg(photo, 10_000_000)]]));
    await expectAccepted(res, org.testKey, ip, 'upscale');
  });

  it('refuses a mask file over 10 MB: 413 image_too_large mask', async () => {
    const res = await post(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['mode', 'mask'],
        ['quality', '1k'],
        ['image', photo],
        ['layers', JSON.stringify([{ mask_color: '#FF0000', action: 'remove' }])],
        ['mask', Buffer.alloc(10 * MiB + 1, 1)],
      ]),
    );
    expectError(res, 413, 'image_too_large', 'mask');
  });

  it('refuses text fields over 64 KB in total: 413 request_too_large', async () => {
    const metadata = JSON.stringify(Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'x'.repeat(500)])));
    // One field beyond the limit, and several fields that only together pass it.
    const one = await post('/v1/upscales', org.testKey, ip, form([['image', photo], ['scale', 'x2'], ['background', 'true'], ['prompt', 'x'.repeat(70 * 1024)]]));
    expectError(one, 413, 'request_too_large');
    const fields: [string, string][] = Array.from({ length: 9 }, (_, i) => [`note${i}`, 'y'.repeat(8 * 1024)]);
    const several = await post('/v1/upscales', org.testKey, ip, form([['image', photo], ['scale', 'x2'], ['background', 'true'], ['metadata', metadata], ...fields]));
    expectError(several, 413, 'request_too_large');
  });

  it('refuses a JSON body over 64 KB: 413 request_too_large', async () => {
    const res = await post('/v1/upscales', org.testKey, ip, { image: photoUrl, scale: 'x2', background: true, metadata: { note: 'x'.repeat(65 * 1024) } });
    expectError(res, 413, 'request_too_large');
  });

  it('refuses layers that are not JSON: 400 parameter_invalid layers', async () => {
    const res = await post(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['image', photo],
        ['mode', 'mask'],
        ['quality', '1k'],
        ['mask', await maskPng(320, 240, halves(320, 240, '#FF0000'))],
        ['layers', '[{"mask_color": "#FF0000", action: remove}'],
      ]),
    );
    expectError(res, 400, 'parameter_invalid', 'layers');
  });

  it('refuses metadata that is not JSON: 400 parameter_invalid metadata', async () => {
    const res = await post('/v1/upscales', org.testKey, ip, form([['image', photo], ['scale', 'x2'], ['background', 'true'], ['metadata', 'order=42']]));
    expectError(res, 400, 'parameter_invalid', 'metadata');
  });

  it('reads background as true/false only: background=maybe is 400 parameter_invalid background', async () => {
    const res = await post('/v1/upscales', org.testKey, ip, form([['image', photo], ['scale', 'x2'], ['background', 'maybe']]));
    expectError(res, 400, 'parameter_invalid', 'background');
  });

  it('refuses a file for a layer that does not exist: 400 parameter_invalid layers[N].element', async () => {
    const mask = await maskPng(320, 240, halves(320, 240, '#FF0000'));
    const element = await noiseImage(100, 100, 'png');
    const noLayers = await post('/v1/edits', org.testKey, ip, form([['image', photo], ['mode', 'mask'], ['quality', '1k'], ['mask', mask], ['layers[0].element', element]]));
    expectError(noLayers, 400, 'parameter_invalid', 'layers[0].element');
    const oneLayer = await post(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['image', photo],
        ['mode', 'mask'],
        ['quality', '1k'],
        ['mask', mask],
        ['layers', JSON.stringify([{ mask_color: '#FF0000', action: 'add' }])],
        ['layers[1].element', element],
      ]),
    );
    expectError(oneLayer, 400, 'parameter_invalid', 'layers[1].element');
  });

  it('refuses an element file for a layer whose action takes none: 400 parameter_invalid layers[0].element', async () => {
    const res = await post(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['image', photo],
        ['mode', 'mask'],
        ['quality', '1k'],
        ['mask', await maskPng(320, 240, halves(320, 240, '#FF0000'))],
        ['layers', JSON.stringify([{ mask_color: '#FF0000', action: 'remove' }])],
        ['layers[0].element', await noiseImage(100, 100, 'png')],
      ]),
    );
    expectError(res, 400, 'parameter_invalid', 'layers[0].element');
  });

  it('checks file content like URL content: text is 415 unsupported_image_type, a cut JPEG 400 image_unreadable, 8193 px 400 image_dimensions_invalid', async () => {
    const text = await post('/v1/upscales', org.testKey, ip, form([['image', Buffer.from('hello, I am not an image')], ['scale', 'x2'], ['background', 'true']]));
    expectError(text, 415, 'unsupported_image_type', 'image');
    const cut = await post('/v1/upscales', org.testKey, ip, form([['image', photo.subarray(0, Math.floor(photo.length / 2))], ['scale', 'x2'], ['background', 'true']]));
    expectError(cut, 400, 'image_unreadable', 'image');
    const wide = await post('/v1/upscales', org.testKey, ip, form([['image', bilevelPng(8193, 10)], ['scale', 'x2'], ['background', 'true']]));
    expectError(wide, 400, 'image_dimensions_invalid', 'image');
    const gifElement = await post(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['image', photo],
        ['mode', 'mask'],
        ['quality', '1k'],
        ['mask', await maskPng(320, 240, halves(320, 240, '#FF0000'))],
        ['layers', JSON.stringify([{ mask_color: '#FF0000', action: 'add' }])],
        ['layers[0].element', GIF_1X1],
      ]),
    );
    expectError(gifElement, 415, 'unsupported_image_type', 'layers[0].element');
  });
});

describe('Input images: a refused request is never charged and leaves no stored image', () => {
  it('live upscales refused for their images: balance, generations and stored inputs unchanged', { timeout: 120_000 }, async () => {
    const live = await createTestOrg({ credit: 5_000 });
    const before = await ledgerSnapshot(live.id);
    const dirs = inputDirectories();
    const key = live.liveKey;

    expectError(await upscale('http://127.0.0.1/photo.jpg', key), 400, 'parameter_invalid', 'image');
    expectError(await upscale(`data:image/jpeg;base64,${photo.toString('base64')}`, key), 400, 'parameter_invalid', 'image');
    expectError(await upscale('https://10.0.0.1/x.jpg', key), 400, 'image_url_unreachable', 'image');
    expectError(await upscale(`${imageOrigin}/status/404`, key), 400, 'image_url_unreachable', 'image');
    expectError(await upscale(servedUrl(photoName, 'redirect/6'), key), 400, 'image_url_unreachable', 'image');
    expectError(await upscale(`${imageOrigin}/endless`, key), 413, 'image_too_large', 'image');
    expectError(await upscale(serve(GIF_1X1, 'gif'), key), 415, 'unsupported_image_type', 'image');
    expectError(await upscale(serve(bilevelPng(8193, 10), 'png'), key), 400, 'image_dimensions_invalid', 'image');
    expectError(await upscale(serve(photo.subarray(0, 2000), 'jpg'), key), 400, 'image_unreadable', 'image');
    expectError(await post('/v1/upscales', key, ip, form([['photo', photo], ['scale', 'x2'], ['background', 'true']])), 400, 'parameter_invalid', 'photo');
    expectError(await post('/v1/upscales', key, ip, form([['image', paddedJpeg(photo, 10 * MiB + 1)], ['scale', 'x2'], ['background', 'true']])), 413, 'image_too_large', 'image');
    expectError(await post('/v1/upscales', key, ip, form([['image', photo], ['scale', 'x2'], ['background', 'maybe']])), 400, 'parameter_invalid', 'background');
    expectError(await post('/v1/upscales', key, ip, { image: photoUrl, scale: 'x2', metadata: { note: 'x'.repeat(65 * 1024) } }), 413, 'request_too_large');

    expect(await ledgerSnapshot(live.id)).toEqual(before);
    await expectNoInputsLeft(dirs);
  });

  it('a live upscale refused after its images were received (balance too low) leaves nothing stored', async () => {
    const poor = await createTestOrg({ credit: 0 });
    const before = await ledgerSnapshot(poor.id);
    const dirs = inputDirectories();
    expectError(await upscale(photoUrl, poor.liveKey), 402, 'insufficient_balance');
    expectError(await post('/v1/upscales', poor.liveKey, ip, form([['image', photo], ['scale', 'x2'], ['background', 'true']])), 402, 'insufficient_balance');
    expect(await ledgerSnapshot(poor.id)).toEqual(before);
    await expectNoInputsLeft(dirs);
  });

  it('test-mode refusals leave no stored image either', async () => {
    const dirs = inputDirectories();
    const image = await noiseImage(640, 480);
    // Mask checked after the images were downloaded: wrong colours, wrong proportions.
    const wrongColours = await post(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['image', image],
        ['mode', 'mask'],
        ['quality', '1k'],
        ['mask', await maskPng(640, 480, halves(640, 480, '#CCFF00'))],
        ['layers', JSON.stringify([{ mask_color: '#FF0000', action: 'remove' }])],
      ]),
    );
    expectError(wrongColours, 400, 'mask_colors_mismatch', 'layers[0].mask_color');
    const wrongSize = await post(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['image', image],
        ['mode', 'mask'],
        ['quality', '1k'],
        ['mask', await maskPng(640, 640, halves(640, 640, '#FF0000'))],
        ['layers', JSON.stringify([{ mask_color: '#FF0000', action: 'remove' }])],
      ]),
    );
    expectError(wrongSize, 400, 'mask_dimensions_mismatch', 'mask');
    await expectNoInputsLeft(dirs);
  });
});

describe('Input images: chaining and EXIF orientation', () => {
  it('takes output[0].url of a generation as the image of another', { timeout: 240_000 }, async () => {
    const first = await post<ApiGeneration>('/v1/upscales', org.testKey, ip, { image: serve(await noiseImage(160, 120), 'jpg'), scale: 'x2' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.status).toBe('succeeded');
    const url = first.body.output[0]?.url;
    expect(url).toBeTruthy();
    expect(first.body.output[0]).toMatchObject({ width: 320, height: 240 });

    const second = await post<ApiGeneration>('/v1/upscales', org.testKey, ip, { image: url, scale: 'x2' });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.status).toBe('succeeded');
    expect(second.body.output[0]).toMatchObject({ width: 640, height: 480 });
  });

  it('straightens the image by its EXIF orientation before generation (400×200 stored, orientation 6 → x2 gives 400×800)', { timeout: 240_000 }, async () => {
    const rotated = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#556677', noise: { type: 'gaussian', mean: 120, sigma: 30 } } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const meta = await sharp(rotated).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([400, 200, 6]);

    const res = await post<ApiGeneration>('/v1/upscales', org.testKey, ip, form([['image', rotated], ['scale', 'x2']]));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const gen = res.body.status === 'in_progress' ? await waitForEnd(res.body.id, org.testKey, ip) : res.body;
    expect(gen.status).toBe('succeeded');
    expect(gen.output[0]).toMatchObject({ width: 400, height: 800 });
    // The image itself, not just the announced size; and no EXIF orientation left on it.
    const bytes = Buffer.from(await (await fetch(gen.output[0]!.url)).arrayBuffer());
    const out = await sharp(bytes).metadata();
    expect([out.width, out.height]).toEqual([400, 800]);
    expect(out.orientation ?? 1).toBe(1);
    expect(out.exif).toBeUndefined();
  });

  it('never returns the received images: input holds settings only', async () => {
    const gen = await expectAccepted(await upscale(photoUrl), org.testKey, ip, 'upscale');
    expect(gen.input).toEqual({ quality: null, scale: 'x2' });
    expect(JSON.stringify(gen)).not.toContain(photoName);
  });
});
