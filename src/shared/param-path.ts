/**
 * The spec's `param` naming of a position in a request body: `['layers', 0, 'element']` →
 * `layers[0].element`. Pure (no server import), so the console's playground names its
 * client-side refusals exactly as the server does.
 */
export function paramFromPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}
