/** What the doors read of a request before its body: a web `Request` is one. */
export interface RequestHead {
  readonly method: string;
  /** Absolute: our fixed origin and the checked path. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
}
