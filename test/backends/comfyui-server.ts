/**
 * A local ComfyUI: its HTTP API (server.py routes) over HTTPS on 127.0.0.1:<port>:
 *   POST /upload/image (multipart image, type, overwrite, subfolder)
 *   POST /prompt {prompt: <API-format workflow>, client_id} → {prompt_id, number, node_errors}
 *        (400 prompt_outputs_failed_validation with node_errors when a node lacks a required
 *        input or a LoadImage names a file that was not uploaded: comfyui-nodes.ts)
 *   GET /history/<prompt_id> → {} while queued/running, then outputs and status
 *   GET /view?filename&subfolder&type
 *   GET /queue → {queue_running, queue_pending}
 *   POST /queue {delete: [...]}, POST /interrupt, POST /history {delete: [...]}
 *   GET /ws?clientId=… (websocket): `progress` messages {value, max, prompt_id, node} of the
 *        sampler's steps, sent to the client that submitted the prompt
 * As ComfyUI does, an interrupted run stops at its next step and only then writes its history
 * entry (INTERRUPT_STOP_MS later): a history delete sent before that finds nothing to delete.
 * "Executing" a workflow: the LoadImage node's image, resized to the ImageScale node's size
 * when there is one, colours inverted, saved by the SaveImage node. Tests script the next runs;
 * `throttle()` makes the next POST /prompt calls answer 429 with a Retry-After.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { WebSocketServer, type WebSocket } from 'ws';
import type { TestCertificates } from '../tls';
import { validateWorkflow, type Workflow } from './comfyui-nodes';

export type ComfyBehaviour = 'ok' | 'slow' | 'fail' | 'refuse' | 'wrong-size' | 'hang';


export interface FakePrompt {
  id: string;
  workflow: Workflow;
  behaviour: ComfyBehaviour;
  state: 'running' | 'success' | 'error' | 'interrupted';
  clientId: string | null;
  polls: number;
  queueDeleted: boolean;
  interrupted: boolean;
  /** When the interrupted run stopped and wrote its history entry (Date.now()), else null. */
  stoppedAt: number | null;
  historyDeleted: boolean;
  /** The progress messages sent ({value, max}), in order. */
  progressSent: Array<{ value: number; max: number }>;
  output: string | null;
  error: string | null;
}

export interface FakeComfy {
  url: string;
  prompts: FakePrompt[];
  uploads: Map<string, Buffer>;
  /** Date.now() of every POST /prompt, refused or not. */
  promptRequests: number[];
  /** Every POST /prompt refused by validation: its 400 body. */
  refused: unknown[];
  script(...behaviours: ComfyBehaviour[]): void;
  /** The next `times` POST /prompt calls answer 429 with this Retry-After. */
  throttle(retryAfter: string, times: number): void;
  reset(): void;
  close(): Promise<void>;
}

const SLOW_MS = 2_500;
const FAST_MS = 150;
/** The sampler's steps, reported one by one over a slow run. */
const STEPS = 20;
/** How long an interrupted run takes to stop at its next step and write its history. */
export const INTERRUPT_STOP_MS = 1_500;

/**
 * `holdAtStep`: a slow run stops at that sampler step until `POST /test/release` (a route of
 * this stand-in only), which lets through every run queued before it, also one that has not
 * reached the step yet: a browser test can look at a run in progress for as long as it needs.
 */
export async function startFakeComfy(certs: TestCertificates, options: { slowMs?: number; defaultBehaviour?: ComfyBehaviour; holdAtStep?: number } = {}): Promise<FakeComfy> {
  const prompts: FakePrompt[] = [];
  const uploads = new Map<string, Buffer>();
  const outputs = new Map<string, Buffer>();
  const promptRequests: number[] = [];
  const refused: unknown[] = [];
  const sockets = new Map<string, Set<WebSocket>>();
  let queue: ComfyBehaviour[] = [];
  let throttled: { retryAfter: string; times: number } | null = null;
  let seq = 0;
  const slowMs = options.slowMs ?? SLOW_MS;
  let release: () => void = () => undefined;
  let released = new Promise<void>((resolve) => (release = resolve));
  /** Runs queued before the last `POST /test/release` (prompts[0 … releasedUpTo − 1]) pass their hold. */
  let releasedUpTo = 0;

  const send = (p: FakePrompt, message: unknown) => {
    for (const ws of sockets.get(p.clientId ?? '') ?? []) ws.send(JSON.stringify(message));
  };

  const nodesOf = (w: Workflow, type: string) => Object.values(w).filter((n) => n.class_type === type);

  const execute = async (p: FakePrompt) => {
    if (p.behaviour === 'hang') return;
    const sampler = Object.entries(p.workflow).find(([, n]) => n.class_type === 'KSampler')?.[0] ?? '7';
    if (p.behaviour === 'slow') {
      // The sampler's steps, each a progress message to the submitting client, as ComfyUI sends them.
      for (let step = 1; step <= STEPS; step++) {
        await new Promise((r) => setTimeout(r, slowMs / STEPS));
        // Held until a release sent after this run was queued: one sent before it reached this
        // step counts (a test releases once it has seen what it needed), one sent before it was
        // queued does not (other tests' runs may be holding too).
        if (step === options.holdAtStep) while (prompts.indexOf(p) >= releasedUpTo) await released;
        if (p.state !== 'running') return;
        p.progressSent.push({ value: step, max: STEPS });
        send(p, { type: 'progress', data: { value: step, max: STEPS, prompt_id: p.id, node: sampler } });
      }
    } else await new Promise((r) => setTimeout(r, FAST_MS));
    if (p.state !== 'running') return;
    if (p.behaviour === 'fail' || p.behaviour === 'refuse') {
      p.state = 'error';
      p.error = p.behaviour === 'fail' ? 'Allocation on device 0 would exceed allowed memory. (out of memory)' : 'NSFW content detected by the safety checker node';
      return;
    }
    const source = uploads.get(String(nodesOf(p.workflow, 'LoadImage')[0]!.inputs.image))!;
    const scale = nodesOf(p.workflow, 'ImageScale')[0]?.inputs;
    let img = sharp(source);
    if (scale) img = img.resize(Number(scale.width), Number(scale.height), { fit: 'fill' });
    if (p.behaviour === 'wrong-size') img = img.resize(768, 768, { fit: 'fill' });
    const name = `roomtone_${String(++seq).padStart(5, '0')}_.png`;
    outputs.set(name, await img.negate({ alpha: false }).png().toBuffer());
    p.output = name;
    p.state = 'success';
  };

  const historyWritten = (p: FakePrompt) => p.state === 'success' || p.state === 'error' || (p.state === 'interrupted' && p.stoppedAt !== null);
  const history = (p: FakePrompt) => {
    if (!historyWritten(p) || p.historyDeleted) return {};
    const status =
      p.state === 'success'
        ? { status_str: 'success', completed: true, messages: [['execution_start', {}], ['execution_success', {}]] }
        : { status_str: 'error', completed: false, messages: [['execution_start', {}], ['execution_error', { exception_message: p.error ?? 'interrupted', exception_type: 'RuntimeError' }]] };
    const saveId = Object.entries(p.workflow).find(([, n]) => n.class_type === 'SaveImage')?.[0] ?? '9';
    return { [p.id]: { prompt: [0, p.id, p.workflow, {}, [saveId]], outputs: p.output ? { [saveId]: { images: [{ filename: p.output, subfolder: '', type: 'output' }] } } : {}, status } };
  };

  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json' }).end(text);
  };

  const server = https.createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      const parts = url.pathname.split('/').filter(Boolean);
      if (req.method === 'POST' && url.pathname === '/upload/image') {
        const form = await new Response(new Uint8Array(body), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
        const image = form.get('image');
        if (!(image instanceof File)) return json(res, 400, { error: 'no image' });
        uploads.set(image.name, Buffer.from(await image.arrayBuffer()));
        return json(res, 200, { name: image.name, subfolder: '', type: 'input' });
      }
      if (req.method === 'POST' && url.pathname === '/prompt') {
        promptRequests.push(Date.now());
        if (throttled && throttled.times > 0) {
          throttled.times--;
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': throttled.retryAfter }).end(JSON.stringify({ error: 'Too many requests' }));
          return;
        }
        const { prompt: workflow, client_id: clientId } = JSON.parse(body.toString('utf8')) as { prompt: Workflow; client_id?: string };
        const invalid = validateWorkflow(workflow);
        const missing = [...nodesOf(workflow, 'LoadImage'), ...nodesOf(workflow, 'LoadImageMask')].find((n) => !uploads.has(String(n.inputs.image)));
        if (invalid || missing) {
          const answer = invalid ?? { error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} }, node_errors: {} };
          refused.push(answer);
          return json(res, 400, answer);
        }
        const p: FakePrompt = {
          id: `prompt-${++seq}`,
          workflow,
          behaviour: queue.shift() ?? options.defaultBehaviour ?? 'ok',
          state: 'running',
          clientId: clientId ?? null,
          polls: 0,
          queueDeleted: false,
          interrupted: false,
          stoppedAt: null,
          historyDeleted: false,
          progressSent: [],
          output: null,
          error: null,
        };
        prompts.push(p);
        void execute(p);
        return json(res, 200, { prompt_id: p.id, number: prompts.length, node_errors: {} });
      }
      if (req.method === 'GET' && parts[0] === 'history' && parts[1]) {
        const p = prompts.find((x) => x.id === parts[1]);
        if (!p) return json(res, 200, {});
        p.polls++;
        return json(res, 200, history(p));
      }
      if (req.method === 'GET' && url.pathname === '/view') {
        const bytes = url.searchParams.get('type') === 'output' ? outputs.get(url.searchParams.get('filename') ?? '') : undefined;
        if (!bytes) return json(res, 404, {});
        res.writeHead(200, { 'content-type': 'image/png' }).end(bytes);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/test/release') {
        releasedUpTo = prompts.length;
        release();
        released = new Promise<void>((resolve) => (release = resolve));
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'GET' && url.pathname === '/queue') {
        // Every run here starts at once: the running ones (an interrupted one until it stops).
        const running = prompts.filter((p) => p.state === 'running' || (p.state === 'interrupted' && p.stoppedAt === null));
        return json(res, 200, { queue_running: running.map((p, i) => [i, p.id, p.workflow, {}, []]), queue_pending: [] });
      }
      if (req.method === 'POST' && (url.pathname === '/queue' || url.pathname === '/history')) {
        const { delete: ids = [] } = JSON.parse(body.toString('utf8') || '{}') as { delete?: string[] };
        for (const p of prompts.filter((x) => ids.includes(x.id))) {
          if (url.pathname === '/queue') p.queueDeleted = true;
          // Deleting an entry that is not written yet deletes nothing (ComfyUI: a dict pop).
          else if (historyWritten(p)) p.historyDeleted = true;
        }
        res.writeHead(200).end();
        return;
      }
      if (req.method === 'POST' && url.pathname === '/interrupt') {
        const { prompt_id: id } = JSON.parse(body.toString('utf8') || '{}') as { prompt_id?: string };
        for (const p of prompts.filter((x) => x.state === 'running' && (!id || x.id === id))) {
          p.interrupted = true;
          p.state = 'interrupted';
          p.error = 'Interrupted';
          // The run stops at its next step, and only then is its history entry written.
          setTimeout(() => (p.stoppedAt = Date.now()), INTERRUPT_STOP_MS);
        }
        res.writeHead(200).end();
        return;
      }
      json(res, 404, {});
    })().catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    if (url.pathname !== '/ws') return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      const clientId = url.searchParams.get('clientId') ?? `sid-${++seq}`;
      let set = sockets.get(clientId);
      if (!set) sockets.set(clientId, (set = new Set()));
      set.add(ws);
      ws.on('close', () => set.delete(ws));
      ws.send(JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: 0 } }, sid: clientId } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    prompts,
    uploads,
    promptRequests,
    refused,
    script: (...behaviours) => (queue = [...behaviours]),
    throttle: (retryAfter, times) => (throttled = { retryAfter, times }),
    reset: () => {
      queue = [];
      throttled = null;
      prompts.length = 0;
      promptRequests.length = 0;
      refused.length = 0;
    },
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(undefined)));
    },
  };
}
