import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

/**
 * /docs: the API reference, rendered in the browser by Scalar's standalone bundle from
 * GET /v1/openapi.json. Everything is served by this app (no CDN, no web fonts, no telemetry,
 * no AI agent, no "try it" client: a browser request with a key is refused by /v1 anyway), so
 * the page works offline and makes no request to another origin.
 */
export const REFERENCE_SCRIPT_PATH = '/docs/reference.js';
const RENDERER = '@scalar/api-reference';

interface Script {
  version: string;
  plain: Buffer;
  gzip: Buffer;
}
let script: Script | null = null;

/** The renderer's standalone bundle, read once from node_modules (and gzipped once). */
function rendererScript(): Script {
  if (script) return script;
  // Resolved at run time from the project (not bundled: 4 MB of JavaScript for the browser).
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const entry = require.resolve(RENDERER);
  const root = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
  const plain = fs.readFileSync(path.join(root, 'dist', 'browser', 'standalone.js'));
  const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  script = { version, plain, gzip: gzipSync(plain) };
  return script;
}

const CONFIGURATION = {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  hideClientButton: true,
  hideTestRequestButton: true,
  showDeveloperTools: 'never',
  // Only the samples the document carries (curl, SDK, Python): generated ones would put the key in a browser.
  hiddenClients: true,
  defaultOpenAllTags: true,
  metaData: { title: 'Roomtone API reference' },
};

export function apiReferencePage(): Response {
  const { version } = rendererScript();
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Roomtone API reference</title>
<style>body{margin:0}.back{position:fixed;right:12px;bottom:12px;z-index:10;font:14px system-ui,sans-serif;background:#111;color:#fff;padding:6px 10px;border-radius:6px;text-decoration:none}.back:focus-visible{outline:2px solid #6af}</style>
</head>
<body>
<main id="api-reference" aria-label="Roomtone API reference"></main>
<a class="back" href="/">Console</a>
<script src="${REFERENCE_SCRIPT_PATH}?v=${encodeURIComponent(version)}"></script>
<script>Scalar.createApiReference('#api-reference', ${JSON.stringify(CONFIGURATION)});</script>
</body>
</html>`;
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });
}

export function apiReferenceScript(acceptEncoding: string | null): Response {
  const { plain, gzip } = rendererScript();
  const gzipped = /\bgzip\b/.test(acceptEncoding ?? '');
  return new Response(new Uint8Array(gzipped ? gzip : plain), {
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      // The URL carries the renderer's version: a new version is a new URL.
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
      ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
    },
  });
}
