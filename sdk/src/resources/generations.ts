import { sleep, type HttpClient } from '../core/http.js';
import { WaitTimeoutError } from '../core/errors.js';
import type { APIPromise } from '../core/api-promise.js';
import { paginate, type PagePromise } from '../core/pagination.js';
import type { Generation, GenerationListParams, RequestOptions, WaitOptions } from '../types.js';

/** While `onProgress` listens, reads come at least this often (the API stores progress at most once a second). */
const PROGRESS_POLL_MS = 2_000;

export class Generations {
  constructor(private readonly http: HttpClient) {}

  /** `GET /v1/generations/{id}`: the generation at once (fresh output URLs, valid 15 minutes). */
  retrieve(id: string, options?: RequestOptions): APIPromise<Generation> {
    return this.http.call<Generation>({ method: 'GET', path: `/generations/${encodeURIComponent(id)}` }, options);
  }

  /**
   * `GET /v1/generations`, most recent first. `await` it for one page, or iterate every
   * generation with `for await (const g of client.generations.list({ status: 'succeeded' }))`.
   */
  list(params: GenerationListParams = {}, options?: RequestOptions): PagePromise<Generation> {
    return paginate<Generation>(this.http, '/generations', params, options);
  }

  /**
   * `POST /v1/generations/{id}/cancel`: cancels a generation whose processing has not started
   * (409 `generation_not_cancelable` otherwise). If a retry follows a lost answer, the first
   * attempt may have canceled it already: the retry then answers 409; read the generation.
   */
  cancel(id: string, options?: RequestOptions): APIPromise<Generation> {
    return this.http.call<Generation>({ method: 'POST', path: `/generations/${encodeURIComponent(id)}/cancel` }, options);
  }

  /**
   * Read the generation until it ends (succeeded, failed or canceled), waiting 1 s, then half
   * as long again each time, up to 10 s between reads. A failed generation is returned, not
   * thrown: check `status`. Past `timeout` (10 minutes by default) throws `WaitTimeoutError`;
   * the generation goes on.
   *
   * `onProgress` is called with each new value of the API's `progress` (0 to 1, or null when
   * the model cannot tell) and at the end; while it listens, reads come at least every 2 s.
   * Progress comes from reading the generation: the event stream carries only its end.
   */
  async waitUntilDone(generation: string | Pick<Generation, 'id'>, options: WaitOptions = {}): Promise<Generation> {
    const id = typeof generation === 'string' ? generation : generation.id;
    const timeout = options.timeout ?? 10 * 60_000;
    const maxDelay = Math.min(options.maxPollInterval ?? 10_000, options.onProgress ? PROGRESS_POLL_MS : Infinity);
    let delay = Math.min(options.pollInterval ?? 1_000, maxDelay);
    const deadline = Date.now() + timeout;
    let reported: { progress: number | null; status: string } | undefined;
    for (;;) {
      const current = await this.retrieve(id, options.signal ? { signal: options.signal } : {});
      const progress = current.progress ?? null;
      if (options.onProgress && (reported === undefined || reported.progress !== progress || reported.status !== current.status)) {
        reported = { progress, status: current.status };
        options.onProgress({ id, status: current.status, progress, generation: current });
      }
      if (current.status !== 'in_progress') return current;
      const left = deadline - Date.now();
      if (left <= 0) throw new WaitTimeoutError(`Generation ${id} was still in progress after ${timeout} ms.`, current);
      await sleep(Math.min(delay, left), options.signal);
      delay = Math.min(maxDelay, delay * 1.5);
    }
  }
}
