/**
 * Where sign-in returns to: a path of the console's own origin, or '/'. Pure (no server
 * imports): the sign-in page runs it in the browser, Auth.js's redirect callback and the console
 * layout on the server.
 *
 * The value is resolved as a browser would (`new URL(value, origin)`: backslashes, tabs and
 * newlines, dot segments, userinfo and schemes all taken into account), then only the same
 * origin is kept. Control characters are refused outright: browsers strip tabs and newlines
 * from URLs, so `/\t/evil.example` is read as `//evil.example` (another host).
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function safeCallbackPath(value: string | null | undefined, origin: string): string {
  if (!value || value.length > 2000 || CONTROL.test(value)) return '/';
  let own: URL;
  let url: URL;
  try {
    own = new URL(origin);
    url = new URL(value, own);
  } catch {
    return '/';
  }
  if (url.origin !== own.origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // A path that a browser would read as another host ("//host", "/\host") once it is given alone.
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return '/';
  return path;
}
