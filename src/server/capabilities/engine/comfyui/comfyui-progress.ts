import WebSocket from 'ws';
import { log } from '@/server/platform/logger';
import { authHeaders } from './comfyui-http';

/**
 * A ComfyUI run's progress, from its websocket (GET /ws?clientId=…): ComfyUI sends `progress`
 * messages ({value, max, prompt_id, node}) for the steps of the node running (the samplers),
 * to the client that submitted the prompt. The run's fraction is the samplers' steps done:
 * each sampler node of the workflow counts for an equal share. ComfyUI's HTTP API has no
 * progress read, so without the websocket (a proxy that does not pass it) progress is unknown
 * (null) and the run is still followed through /history.
 */
const CONNECT_MS = 5_000;

type Workflow = Record<string, unknown>;

export interface ProgressFollower {
  /** The prompt id to follow (the client id is this attempt's own; messages of other prompts are ignored). */
  follow(promptId: string): void;
  close(): void;
}

/** Sampler nodes (KSampler, KSamplerAdvanced, SamplerCustom…): where the steps are. */
function samplerCount(workflow: Workflow): number {
  const count = Object.values(workflow).filter((node) => /sampler/i.test(String((node as { class_type?: unknown })?.class_type ?? ''))).length;
  return Math.max(1, count);
}

export async function followProgress(httpUrl: string, clientId: string, workflow: Workflow, report: (fraction: number | null) => void): Promise<ProgressFollower> {
  const url = new URL(httpUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('clientId', clientId);
  const samplers = samplerCount(workflow);
  const perNode = new Map<string, number>();
  let promptId: string | null = null;
  let socket: WebSocket | null = null;
  try {
    socket = await new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url, { headers: authHeaders(), handshakeTimeout: CONNECT_MS });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
  } catch (error) {
    log.warn('ComfyUI websocket unavailable; this run\'s progress is unknown', { error: String(error) });
  }
  socket?.on('error', (error) => log.warn('ComfyUI websocket error', { error: String(error) }));
  socket?.on('message', (data, isBinary) => {
    if (isBinary) return; // binary messages are previews
    let message: { type?: string; data?: { prompt_id?: string; node?: string; value?: number; max?: number } };
    try {
      message = JSON.parse(data.toString()) as typeof message;
    } catch {
      return;
    }
    const d = message.data;
    if (message.type !== 'progress' || !d || (promptId !== null && d.prompt_id !== promptId) || typeof d.value !== 'number' || typeof d.max !== 'number' || d.max <= 0) return;
    perNode.set(String(d.node ?? ''), Math.min(1, Math.max(0, d.value / d.max)));
    let done = 0;
    for (const fraction of perNode.values()) done += fraction;
    report(Math.min(1, done / samplers));
  });
  return {
    follow: (id) => {
      promptId = id;
    },
    close: () => {
      socket?.removeAllListeners('message');
      socket?.on('error', () => undefined);
      socket?.terminate();
    },
  };
}
