/**
 * What the client tells about its requests: `client.on('request' | 'response' | 'retry', fn)`,
 * and the `logLevel` / `logger` options that print the same (a 429 that waits 56 s says so).
 */
export interface RequestEvent {
  method: string;
  url: string;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  idempotencyKey: string | undefined;
}

export interface ResponseEvent extends RequestEvent {
  status: number;
  /** The `request-id` header: quote it when asking for help. */
  requestId: string | undefined;
  headers: Headers;
  durationMs: number;
}

export interface RetryEvent extends RequestEvent {
  /** Milliseconds the client waits before the next attempt. */
  delayMs: number;
  /** Why: `429 generation_rate_limit_exceeded`, `503 overloaded`, `connection error: ECONNRESET`, … */
  reason: string;
  /** The status of the refused attempt (undefined after a connection error or timeout). */
  status: number | undefined;
  /** Seconds the server asked to wait (`Retry-After`), if it did. */
  retryAfter: number | undefined;
  requestId: string | undefined;
  error: unknown;
}

export interface ClientEvents {
  request: RequestEvent;
  response: ResponseEvent;
  retry: RetryEvent;
}

export type ClientEventName = keyof ClientEvents;
export type Listener<E extends ClientEventName> = (event: ClientEvents[E]) => void;

export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Anything with console's methods. */
export interface Logger {
  error(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  debug(message: string, ...rest: unknown[]): void;
}

const LEVELS: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && value in LEVELS;
}

/** A wait this long is worth a warning at the default level: the call is visibly slower. */
const LONG_WAIT_MS = 10_000;

export class ClientHooks {
  private readonly listeners: { [E in ClientEventName]: Set<Listener<E>> } = { request: new Set(), response: new Set(), retry: new Set() };

  constructor(
    private readonly level: LogLevel,
    private readonly logger: Logger,
  ) {}

  on<E extends ClientEventName>(name: E, listener: Listener<E>): void {
    (this.listeners[name] as Set<Listener<E>>).add(listener);
  }

  off<E extends ClientEventName>(name: E, listener: Listener<E>): void {
    (this.listeners[name] as Set<Listener<E>>).delete(listener);
  }

  emit<E extends ClientEventName>(name: E, event: ClientEvents[E]): void {
    this.log(name, event);
    for (const listener of this.listeners[name] as Set<Listener<E>>) {
      try {
        listener(event);
      } catch (error) {
        // A listener's bug must not change the call's outcome.
        this.logger.error(`[roomtone] a '${name}' listener threw:`, error);
      }
    }
  }

  private log<E extends ClientEventName>(name: E, event: ClientEvents[E]): void {
    const level = LEVELS[this.level];
    if (name === 'retry') {
      const retry = event as RetryEvent;
      const line = `[roomtone] ${retry.method} ${retry.url}: ${retry.reason}${retry.requestId ? ` (${retry.requestId})` : ''}; retrying in ${(retry.delayMs / 1000).toFixed(1)} s (attempt ${retry.attempt + 1})`;
      if (retry.delayMs >= LONG_WAIT_MS ? level >= LEVELS.warn : level >= LEVELS.info) (retry.delayMs >= LONG_WAIT_MS ? this.logger.warn : this.logger.info).call(this.logger, line);
    } else if (name === 'response' && level >= LEVELS.debug) {
      const response = event as ResponseEvent;
      this.logger.debug(`[roomtone] ${response.method} ${response.url} -> ${response.status} ${response.requestId ?? ''} (${response.durationMs} ms, attempt ${response.attempt})`);
    } else if (name === 'request' && level >= LEVELS.debug) {
      const request = event as RequestEvent;
      this.logger.debug(`[roomtone] ${request.method} ${request.url} (attempt ${request.attempt})`);
    }
  }
}
