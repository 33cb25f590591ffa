/**
 * A local OpenAI images API: POST /v1/images/edits (multipart: model, prompt, size, n, image,
 * mask, output_format, output_compression), answering {created, output_format, data:
 * [{b64_json}], usage} or OpenAI's error envelope, over HTTPS on 127.0.0.1:<port>. The "model"
 * inverts the image's colours at the requested size. As the API does, only gpt-image models
 * take output_format (PNG by default); dall-e models answer 400 to it. DALL·E 2 takes only a
 * square PNG under 4 MB at 256x256, 512x512 or 1024x1024, with a mask or with transparency (its
 * own mask). `throttle()` makes the next calls answer 429 with a Retry-After.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { TestCertificates } from '../tls';

export type OpenAIBehaviour = 'ok' | 'slow' | 'fail' | 'refuse' | 'wrong-size' | 'hang';

export interface FakeEdit {
  model: string;
  prompt: string;
  size: string;
  image: { width: number; height: number; format: string };
  mask: { width: number; height: number; transparent: number } | null;
  /** The output_format field as sent (null when absent). */
  outputFormat: string | null;
  behaviour: OpenAIBehaviour;
  /** The client closed the connection before an answer (its abort: the only cancel there is). */
  abandoned: boolean;
  /** Date.now() when the request arrived, and when the client abandoned it. */
  receivedWall: number;
  abandonedAt: number | null;
  /** performance.now() in this process when the request arrived and when the answer was sent (bench). */
  receivedAt: number;
  endedAt: number | null;
}

export interface FakeOpenAI {
  url: string;
  edits: FakeEdit[];
  /** Date.now() of every images/edits request (throttled and refused ones too). */
  requests: number[];
  /** The 400 answers' messages, in order. */
  refusals: string[];
  script(...behaviours: OpenAIBehaviour[]): void;
  throttle(retryAfter: string, times: number): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeOpenAI(certs: TestCertificates, apiKey: string): Promise<FakeOpenAI> {
  const edits: FakeEdit[] = [];
  const requests: number[] = [];
  const refusals: string[] = [];
  let queue: OpenAIBehaviour[] = [];
  let throttled: { retryAfter: string; times: number } | null = null;
  const error = (res: import('node:http').ServerResponse, status: number, message: string, type: string, code: string | null) => {
    if (status === 400) refusals.push(message);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message, type, param: null, code } }));
  };

  const server = https.createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    const receivedAt = performance.now();
    void (async () => {
      if (req.headers.authorization !== `Bearer ${apiKey}`) return error(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
      if (req.method !== 'POST' || req.url !== '/v1/images/edits') return error(res, 404, 'Not found', 'invalid_request_error', null);
      requests.push(Date.now());
      if (throttled && throttled.times > 0) {
        throttled.times--;
        req.resume();
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': throttled.retryAfter }).end(JSON.stringify({ error: { message: 'Rate limit reached for images per minute.', type: 'requests', param: null, code: 'rate_limit_exceeded' } }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const form = await new Response(new Uint8Array(Buffer.concat(chunks)), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
      const imageFile = form.get('image');
      if (!(imageFile instanceof File)) return error(res, 400, "Missing required parameter: 'image'.", 'invalid_request_error', 'missing_required_parameter');
      const image = Buffer.from(await imageFile.arrayBuffer());
      const meta = await sharp(image).metadata();
      const model = String(form.get('model'));
      // gpt-image models take PNG, WebP or JPEG; dall-e-2 only a PNG.
      const formats = model.startsWith('gpt-image') ? ['png', 'webp', 'jpeg'] : ['png'];
      if (!formats.includes(meta.format ?? '')) return error(res, 400, 'Invalid input image - format must be in [' + formats.join(', ') + '].', 'invalid_request_error', 'invalid_image_format');
      const size = String(form.get('size') ?? 'auto');
      if (size !== 'auto' && size !== `${meta.width}x${meta.height}`) return error(res, 400, 'Invalid size for the image.', 'invalid_request_error', 'invalid_value');
      const dallE2 = model === 'dall-e-2';
      if (dallE2) {
        if (!['256x256', '512x512', '1024x1024'].includes(size)) return error(res, 400, `Invalid value: '${size}'. Supported values are: '256x256', '512x512', and '1024x1024'.`, 'invalid_request_error', 'invalid_value');
        if (meta.width !== meta.height) return error(res, 400, 'Invalid input image - image must be square.', 'invalid_request_error', 'invalid_image');
        if (image.length >= 4 * 1024 * 1024) return error(res, 400, 'Uploaded image must be a PNG and less than 4 MB.', 'invalid_request_error', 'invalid_image');
        if (!form.has('mask') && !meta.hasAlpha) return error(res, 400, "Invalid input image - format must be in ['RGBA', 'LA', 'L'], got RGB.", 'invalid_request_error', 'invalid_image_format');
      }
      const maskFile = form.get('mask');
      let mask: FakeEdit['mask'] = null;
      if (maskFile instanceof File) {
        const { data, info } = await sharp(Buffer.from(await maskFile.arrayBuffer())).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
        if (info.width !== meta.width || info.height !== meta.height) return error(res, 400, 'Invalid mask: must match the image size.', 'invalid_request_error', 'invalid_value');
        let transparent = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] === 0) transparent++;
        mask = { width: info.width, height: info.height, transparent };
      }
      const outputFormat = form.has('output_format') ? String(form.get('output_format')) : null;
      if (outputFormat !== null && !model.startsWith('gpt-image')) return error(res, 400, `Unknown parameter: 'output_format'.`, 'invalid_request_error', 'unknown_parameter');
      if (outputFormat !== null && !['png', 'jpeg', 'webp'].includes(outputFormat)) return error(res, 400, `Invalid value: '${outputFormat}'.`, 'invalid_request_error', 'invalid_value');
      const edit: FakeEdit = { model, prompt: String(form.get('prompt')), size, image: { width: meta.width!, height: meta.height!, format: meta.format! }, mask, outputFormat, behaviour: queue.shift() ?? 'ok', abandoned: false, receivedWall: Date.now(), abandonedAt: null, receivedAt, endedAt: null };
      edits.push(edit);
      res.on('close', () => {
        if (!res.writableEnded) {
          edit.abandoned = true;
          edit.abandonedAt = Date.now();
        }
      });
      if (edit.behaviour === 'hang') return;
      if (edit.behaviour === 'slow') await new Promise((r) => setTimeout(r, 2_500));
      if (edit.behaviour === 'fail') return error(res, 500, 'The server had an error while processing your request.', 'server_error', null);
      if (edit.behaviour === 'refuse') return error(res, 400, 'Your request was rejected as a result of our safety system.', 'image_generation_user_error', 'moderation_blocked');
      let out = sharp(image);
      if (edit.behaviour === 'wrong-size') out = out.resize(1024, 1024, { fit: 'fill' });
      out = out.negate({ alpha: false });
      const format = (outputFormat ?? 'png') as 'png' | 'jpeg' | 'webp';
      const quality = Number(form.get('output_compression') ?? 100);
      const answer = await (format === 'png' ? out.png() : format === 'jpeg' ? out.jpeg({ quality }) : out.webp({ quality })).toBuffer();
      edit.endedAt = performance.now();
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ created: Math.floor(Date.now() / 1000), output_format: format, data: [{ b64_json: answer.toString('base64') }], usage: { input_tokens: 400, output_tokens: 4160, total_tokens: 4560 } }),
      );
    })().catch((e: unknown) => error(res, 500, String(e), 'server_error', null));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    edits,
    requests,
    refusals,
    script: (...behaviours) => (queue = [...behaviours]),
    throttle: (retryAfter, times) => (throttled = { retryAfter, times }),
    reset: () => {
      queue = [];
      throttled = null;
      edits.length = 0;
      requests.length = 0;
      refusals.length = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(undefined)));
    },
  };
}
