/**
 * A local Replicate: the documented predictions HTTP API (api.replicate.com/v1) on
 * https://[::1] (port 443; the image server holds 127.0.0.1:443), with a scripted "model":
 *   POST /v1/files (multipart `content`), GET /v1/files/<id>/content, DELETE /v1/files/<id>
 *   POST /v1/models/<owner>/<name>/predictions, POST /v1/predictions (version), honouring
 *        `Prefer: wait=<s>` and `webhook` + `webhook_events_filter`
 *   GET /v1/predictions/<id>, POST /v1/predictions/<id>/cancel
 *   GET /deliveries/<file>: outputs (as replicate.delivery)
 * The model inverts the input image's colours at the requested size (so a test can tell its
 * pixels from the input's); a slow run prints a tqdm bar in its logs, as diffusion models do.
 * As Replicate does, only official models run by name (`officialModels`); another model by
 * name answers 404. Tests script what the next predictions do with `script()`, and
 * `throttle()` makes the next creates answer 429 with a Retry-After.
 */
import https from 'node:https';
import sharp from 'sharp';
import type { TestCertificates } from '../tls';
import { listenOn443 } from '../port-443';

export type Behaviour = 'ok' | 'slow' | 'fail' | 'nsfw' | 'wrong-size' | 'hang';

export interface FakePrediction {
  id: string;
  model: string;
  version: string | null;
  input: Record<string, unknown>;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  output: string | null;
  error: string | null;
  webhook: string | null;
  behaviour: Behaviour;
  created_at: string;
  metrics: { predict_time?: number };
  reads: number;
  webhookStatus: number | null;
  canceledByClient: boolean;
  /** Date.now() when the cancel arrived. */
  canceledAt: number | null;
  logs: string;
  /** performance.now() in this process when the create arrived and when the run ended (bench). */
  receivedAt: number;
  endedAt: number | null;
}

export interface FakeReplicate {
  origin: string;
  predictions: FakePrediction[];
  files: Map<string, { bytes: Buffer; type: string; deleted: boolean; metadata: Record<string, unknown> }>;
  /** The model's answers by file name (the last segment of a prediction's output URL). */
  outputs: Map<string, Buffer>;
  /** Date.now() of every prediction create request, throttled or not. */
  createRequests: number[];
  script(...behaviours: Behaviour[]): void;
  /** The next `times` creates answer 429 with this Retry-After (seconds or an HTTP date). */
  throttle(retryAfter: string, times: number): void;
  /** Forget the script, the predictions, the uploaded files and the outputs (one test's own). */
  reset(): void;
  close(): Promise<void>;
}

const SLOW_MS = 3_000;
const FAST_MS = 150;

async function readBody(req: import('node:http').IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Models that run by name here (Replicate's official models); any other needs a version. */
export const OFFICIAL_MODELS = new Set(['roomtone-test/interior-render', 'roomtone-test/decorate', 'roomtone-test/inpaint', 'roomtone-bench/render']);
const STEPS = 30;

function tqdm(step: number): string {
  const percent = Math.floor((step / STEPS) * 100);
  const bar = '█'.repeat(Math.floor(percent / 10)).padEnd(10, ' ');
  return `${String(percent).padStart(3)}%|${bar}| ${step}/${STEPS} [00:0${step % 10}<00:05,  4.2it/s]`;
}

export async function startFakeReplicate(certs: TestCertificates, token: string): Promise<FakeReplicate> {
  const origin = 'https://[::1]';
  const predictions: FakePrediction[] = [];
  const files: FakeReplicate['files'] = new Map();
  const outputs = new Map<string, Buffer>();
  const waiters = new Map<string, Array<() => void>>();
  const createRequests: number[] = [];
  let throttled: { retryAfter: string; times: number } | null = null;
  let queue: Behaviour[] = [];
  let seq = 0;

  const view = (p: FakePrediction) => ({
    id: p.id,
    model: p.model,
    version: p.version ?? 'hidden',
    input: p.input,
    logs: p.logs,
    output: p.output,
    error: p.error,
    status: p.status,
    created_at: p.created_at,
    data_removed: false,
    source: 'api',
    metrics: p.metrics,
    urls: { get: `${origin}/v1/predictions/${p.id}`, cancel: `${origin}/v1/predictions/${p.id}/cancel` },
  });

  const deliverWebhook = (p: FakePrediction) => {
    if (!p.webhook) return;
    const body = JSON.stringify(view(p));
    const req = https.request(p.webhook, { method: 'POST', ca: certs.caPem, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      p.webhookStatus = res.statusCode ?? 0;
      res.resume();
    });
    req.on('error', () => (p.webhookStatus = -1));
    req.end(body);
  };

  const settle = (p: FakePrediction) => {
    p.endedAt = performance.now();
    for (const w of waiters.get(p.id) ?? []) w();
    waiters.delete(p.id);
    deliverWebhook(p);
  };

  const inputImage = (p: FakePrediction): Buffer => {
    const url = String(p.input.image ?? '');
    const id = /\/v1\/files\/([^/]+)\/content$/.exec(url)?.[1];
    const file = id ? files.get(id) : undefined;
    if (!file) throw new Error(`model input image ${url} is not a file of this server`);
    return file.bytes;
  };

  const run = async (p: FakePrediction) => {
    p.status = 'processing';
    if (p.behaviour === 'hang') return; // never ends unless canceled
    if (p.behaviour === 'slow') {
      p.logs = 'Using seed: 7\n';
      for (let step = 1; step <= STEPS; step++) {
        await new Promise((r) => setTimeout(r, SLOW_MS / STEPS));
        if (p.status !== 'processing') return; // canceled meanwhile
        p.logs += `\r${tqdm(step)}`;
      }
    } else await new Promise((r) => setTimeout(r, FAST_MS));
    if (p.status !== 'processing') return; // canceled meanwhile
    p.metrics = { predict_time: (p.behaviour === 'slow' ? SLOW_MS : FAST_MS) / 1000 };
    if (p.behaviour === 'fail') {
      p.status = 'failed';
      p.error = 'CUDA out of memory. Tried to allocate 2.00 GiB';
    } else if (p.behaviour === 'nsfw') {
      p.status = 'failed';
      p.error = 'NSFW content detected. Try running it again, or try a different prompt.';
    } else {
      const width = Number(p.input.width) || undefined;
      const height = Number(p.input.height) || undefined;
      let img = sharp(inputImage(p)).resize(width, height, { fit: 'fill' });
      if (p.behaviour === 'wrong-size') img = img.resize(512, 512, { fit: 'fill' });
      // Like Replicate's image models: the format and quality the input asks for (default png).
      const quality = Number(p.input.output_quality) || 80;
      const format = p.input.output_format === 'jpg' ? 'jpg' : p.input.output_format === 'webp' ? 'webp' : 'png';
      img = img.negate({ alpha: false });
      const bytes = await (format === 'jpg' ? img.jpeg({ quality }) : format === 'webp' ? img.webp({ quality }) : img.png()).toBuffer();
      const name = `${p.id}.${format}`;
      outputs.set(name, bytes);
      p.output = `${origin}/deliveries/${name}`;
      p.status = 'succeeded';
    }
    settle(p);
  };

  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  };

  const server = https.createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      const parts = url.pathname.split('/').filter(Boolean);
      if (parts[0] === 'deliveries') {
        const name = parts[1] ?? '';
        const bytes = outputs.get(name);
        if (!bytes) return json(res, 404, { detail: 'Not found.' });
        res.writeHead(200, { 'content-type': name.endsWith('.jpg') ? 'image/jpeg' : name.endsWith('.webp') ? 'image/webp' : 'image/png', 'content-length': bytes.length }).end(bytes);
        return;
      }
      if (parts[0] === 'v1' && parts[1] === 'files' && parts[3] === 'content' && req.method === 'GET') {
        const file = files.get(parts[2] ?? '');
        if (!file || file.deleted) return json(res, 404, { detail: 'Not found.' });
        res.writeHead(200, { 'content-type': file.type }).end(file.bytes);
        return;
      }
      if (req.headers.authorization !== `Bearer ${token}`) return json(res, 401, { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 });
      const body = await readBody(req);
      if (parts[0] !== 'v1') return json(res, 404, { detail: 'Not found.' });
      if (parts[1] === 'files' && req.method === 'POST') {
        const form = await new Response(new Uint8Array(body), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
        const content = form.get('content');
        if (!(content instanceof Blob)) return json(res, 400, { detail: 'content is required' });
        const id = `file${++seq}`;
        const metadataPart = form.get('metadata'); // the client sends it as a JSON file part
        const metadata = JSON.parse(metadataPart instanceof Blob ? await metadataPart.text() : (metadataPart ?? '{}')) as Record<string, unknown>;
        files.set(id, { bytes: Buffer.from(await content.arrayBuffer()), type: content.type, deleted: false, metadata });
        return json(res, 201, { id, content_type: content.type, size: content.size, checksums: {}, metadata, created_at: new Date().toISOString(), expires_at: null, urls: { get: `${origin}/v1/files/${id}/content` } });
      }
      if (parts[1] === 'files' && req.method === 'DELETE') {
        const file = files.get(parts[2] ?? '');
        if (!file) return json(res, 404, { detail: 'Not found.' });
        file.deleted = true;
        res.writeHead(204).end();
        return;
      }
      const isCreate = req.method === 'POST' && ((parts[1] === 'predictions' && parts.length === 2) || (parts[1] === 'models' && parts[4] === 'predictions'));
      if (isCreate) {
        createRequests.push(Date.now());
        if (throttled && throttled.times > 0) {
          throttled.times--;
          const text = JSON.stringify({ title: 'Request was throttled.', detail: 'Request was throttled. Expected available in 2 seconds.', status: 429 });
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': throttled.retryAfter, 'content-length': Buffer.byteLength(text) }).end(text);
          return;
        }
        if (parts[1] === 'models' && !OFFICIAL_MODELS.has(`${parts[2]}/${parts[3]}`)) return json(res, 404, { detail: 'The requested resource could not be found.', status: 404 });
        const data = JSON.parse(body.toString('utf8')) as { input?: Record<string, unknown>; version?: string; webhook?: string; webhook_events_filter?: string[] };
        if (!data.input) return json(res, 422, { detail: 'input is required' });
        const p: FakePrediction = {
          id: `pred${++seq}`,
          model: parts[1] === 'models' ? `${parts[2]}/${parts[3]}` : 'by-version',
          version: data.version ?? null,
          input: data.input,
          status: 'starting',
          output: null,
          error: null,
          webhook: data.webhook && (data.webhook_events_filter ?? ['completed']).includes('completed') ? data.webhook : null,
          behaviour: queue.shift() ?? 'ok',
          created_at: new Date().toISOString(),
          metrics: {},
          reads: 0,
          webhookStatus: null,
          canceledByClient: false,
          canceledAt: null,
          logs: '',
          receivedAt: performance.now(),
          endedAt: null,
        };
        predictions.push(p);
        void run(p).catch((error: unknown) => {
          p.status = 'failed';
          p.error = String(error);
          settle(p);
        });
        const wait = /wait(?:=(\d+))?/.exec(String(req.headers.prefer ?? ''));
        if (wait) {
          const seconds = Number(wait[1] ?? 60);
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, seconds * 1000);
            waiters.set(p.id, [...(waiters.get(p.id) ?? []), () => (clearTimeout(t), resolve())]);
          });
        }
        return json(res, 201, view(p));
      }
      const p = predictions.find((x) => x.id === parts[2]);
      if (parts[1] === 'predictions' && p && req.method === 'GET' && parts.length === 3) {
        p.reads++;
        return json(res, 200, view(p));
      }
      if (parts[1] === 'predictions' && p && req.method === 'POST' && parts[3] === 'cancel') {
        p.canceledByClient = true;
        p.canceledAt = Date.now();
        if (p.status === 'starting' || p.status === 'processing') {
          p.status = 'canceled';
          settle(p);
        }
        return json(res, 200, view(p));
      }
      return json(res, 404, { detail: 'Not found.' });
    })().catch((error: unknown) => json(res, 500, { detail: String(error) }));
  });
  // The port is one per machine (or network namespace): files that start one take turns.
  await listenOn443(server, '::1');
  return {
    origin,
    predictions,
    files,
    outputs,
    createRequests,
    script: (...behaviours) => (queue = [...behaviours]),
    throttle: (retryAfter, times) => (throttled = { retryAfter, times }),
    reset: () => {
      queue = [];
      throttled = null;
      createRequests.length = 0;
      predictions.length = 0;
      files.clear();
      outputs.clear();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(undefined)));
    },
  };
}
