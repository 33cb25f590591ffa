import type { HttpClient } from './http.js';
import type { List, RequestOptions } from '../types.js';

/** One page of a paginated list, with the way to the next one. */
export class Page<T extends { id: string }> implements List<T> {
  readonly object = 'list' as const;
  readonly data: T[];
  readonly has_more: boolean;

  constructor(
    list: List<T>,
    private readonly fetchAfter: (after: string) => Promise<Page<T>>,
  ) {
    this.data = list.data;
    this.has_more = list.has_more;
  }

  hasNextPage(): boolean {
    return this.has_more && this.data.length > 0;
  }

  /** The page after this one (`after` = the id of this page's last object). */
  nextPage(): Promise<Page<T>> {
    const last = this.data[this.data.length - 1];
    if (!this.has_more || !last) throw new Error('No next page: check hasNextPage() first.');
    return this.fetchAfter(last.id);
  }

  /** Every object of this page and the following ones, fetching pages as the loop goes. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    yield* this.data;
    if (!this.hasNextPage()) return;
    let page = await this.nextPage();
    for (;;) {
      yield* page.data;
      if (!page.hasNextPage()) return;
      page = await page.nextPage();
    }
  }
}

/**
 * A list call: `await` it for the first page, or iterate it with `for await` for every
 * object of every page (`after` set to the last id received while `has_more` is true).
 */
export class PagePromise<T extends { id: string }> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private first: Promise<Page<T>> | null = null;

  constructor(private readonly load: () => Promise<Page<T>>) {}

  private page(): Promise<Page<T>> {
    this.first ??= this.load();
    return this.first;
  }

  then<A = Page<T>, B = never>(onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.page().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.page().catch(onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    yield* await this.page();
  }
}

/** A paginated GET: the first page with `params`, each next one with `after` = the last id. */
export function paginate<T extends { id: string }>(
  http: HttpClient,
  path: string,
  params: Record<string, string | number | undefined> & { after?: string },
  options?: RequestOptions,
): PagePromise<T> {
  const load = async (after?: string): Promise<Page<T>> => {
    const query = { ...params, ...(after !== undefined ? { after } : {}) };
    const response = await http.request<List<T>>({ method: 'GET', path, query }, options);
    return new Page(response.data, load);
  };
  return new PagePromise(() => load(params.after));
}
