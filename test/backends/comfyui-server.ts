/**
 * A local ComfyUI: its HTTP API (server.py routes) over HTTPS on 127.0.0.1:<port>:
 *   POST /upload/image (multipart image, type, overwrite, subfolder)
 *   POST /prompt {prompt: <API-format workflow>, client_id} → {prompt_id, number, node_errors}
 *        (400 with node_errors when a LoadImage names a file that was not uploaded)
 *   GET /history/<prompt_id> → {} while queued/running, then outputs and status
 *   GET /view?filename&subfolder&type
 *   POST /queue {delete: [...]}, POST /interrupt, POST /history {delete: [...]}
 * "Executing" a workflow: the LoadImage node's image, resized to the ImageScale node's size
 * when there is one, colours inverted, saved by the SaveImage node. Tests script the next runs.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { TestCertificates } from '../tls';

export type ComfyBehaviour = 'ok' | 'slow' | 'fail' | 'refuse' | 'wrong-size' | 'hang';

type Workflow = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

export interface FakePrompt {
  id: string;
  workflow: Workflow;
  behaviour: ComfyBehaviour;
  state: 'running' | 'success' | 'error' | 'interrupted';
  polls: number;
  queueDeleted: boolean;
  interrupted: boolean;
  historyDeleted: boolean;
  output: string | null;
  error: string | null;
}

export interface FakeComfy {
  url: string;
  prompts: FakePrompt[];
  uploads: Map<string, Buffer>;
  script(...behaviours: ComfyBehaviour[]): void;
  reset(): void;
  close(): Promise<void>;
}

const SLOW_MS = 2_500;
const FAST_MS = 150;

export async function startFakeComfy(certs: TestCertificates): Promise<FakeComfy> {
  const prompts: FakePrompt[] = [];
  const uploads = new Map<string, Buffer>();
  const outputs = new Map<string, Buffer>();
  let queue: ComfyBehaviour[] = [];
  let seq = 0;

  const nodesOf = (w: Workflow, type: string) => Object.values(w).filter((n) => n.class_type === type);

  const execute = async (p: FakePrompt) => {
    if (p.behaviour === 'hang') return;
    await new Promise((r) => setTimeout(r, p.behaviour === 'slow' ? SLOW_MS : FAST_MS));
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

  const history = (p: FakePrompt) => {
    if (p.state === 'running' || p.historyDeleted) return {};
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
        const { prompt: workflow } = JSON.parse(body.toString('utf8')) as { prompt: Workflow };
        const missing = [...nodesOf(workflow, 'LoadImage'), ...nodesOf(workflow, 'LoadImageMask')].find((n) => !uploads.has(String(n.inputs.image)));
        if (missing || nodesOf(workflow, 'SaveImage').length === 0) {
          return json(res, 400, { error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} }, node_errors: {} });
        }
        const p: FakePrompt = { id: `prompt-${++seq}`, workflow, behaviour: queue.shift() ?? 'ok', state: 'running', polls: 0, queueDeleted: false, interrupted: false, historyDeleted: false, output: null, error: null };
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
      if (req.method === 'POST' && (url.pathname === '/queue' || url.pathname === '/history')) {
        const { delete: ids = [] } = JSON.parse(body.toString('utf8') || '{}') as { delete?: string[] };
        for (const p of prompts.filter((x) => ids.includes(x.id))) {
          if (url.pathname === '/queue') p.queueDeleted = true;
          else p.historyDeleted = true;
        }
        res.writeHead(200).end();
        return;
      }
      if (req.method === 'POST' && url.pathname === '/interrupt') {
        const { prompt_id: id } = JSON.parse(body.toString('utf8') || '{}') as { prompt_id?: string };
        for (const p of prompts.filter((x) => x.state === 'running' && (!id || x.id === id))) {
          p.interrupted = true;
          p.state = 'interrupted';
        }
        res.writeHead(200).end();
        return;
      }
      json(res, 404, {});
    })().catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    prompts,
    uploads,
    script: (...behaviours) => (queue = [...behaviours]),
    reset: () => {
      queue = [];
      prompts.length = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(undefined)));
    },
  };
}
