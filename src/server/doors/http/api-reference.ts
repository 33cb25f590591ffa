import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

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
  bytes: Buffer;
}
let script: Script | null = null;

/** The renderer's standalone bundle, read once from node_modules (Next compresses it on the way out). */
function rendererScript(): Script {
  if (script) return script;
  // Resolved at run time from the project (not bundled: 4 MB of JavaScript for the browser).
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const entry = require.resolve(RENDERER);
  const root = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
  const bytes = fs.readFileSync(path.join(root, 'dist', 'browser', 'standalone.js'));
  const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  script = { version, bytes };
  return script;
}

const CONFIGURATION = {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: true,
  hideTestRequestButton: true,
  showDeveloperTools: 'never',
  // Only the samples the document carries (curl, SDK, Python): generated ones would put the key in a browser.
  hiddenClients: true,
  defaultOpenAllTags: true,
  metaData: { title: 'Roomtone API reference' },
  // The default theme's greys, method colours and code colours are under WCAG AA contrast (axe).
  customCss: [
    '.light-mode{--scalar-color-2:#595959;--scalar-color-3:#636363;--scalar-sidebar-color-2:#595959;--scalar-color-green:#0a6b47;',
    '--scalar-color-blue:#005a9e;--scalar-color-orange:#a63a00;--scalar-color-red:#b00020;--scalar-color-accent:#005fa3}',
    '.dark-mode{--scalar-color-3:#949494}',
  ].join(''),
};

/** The code blocks' copy buttons have no accessible name (axe: button-name): give them one. */
const NAME_COPY_BUTTONS = `new MutationObserver(() => {
  for (const button of document.querySelectorAll('button.scalar-code-copy:not([aria-label])')) button.setAttribute('aria-label', 'Copy');
}).observe(document.getElementById('reference'), { childList: true, subtree: true });`;

/**
 * The page. The mount point is not `#api-reference`: the bundle mounts a second reference of
 * its own, with default settings (web fonts from Scalar's CDN, its AI agent), on an element
 * of that id.
 */
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
<main id="reference" aria-label="Roomtone API reference"></main>
<a class="back" href="/">Console</a>
<script src="${REFERENCE_SCRIPT_PATH}?v=${encodeURIComponent(version)}"></script>
<script>${NAME_COPY_BUTTONS}</script>
<script>Scalar.createApiReference('#reference', ${JSON.stringify(CONFIGURATION)});</script>
</body>
</html>`;
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });
}

export function apiReferenceScript(): Response {
  return new Response(new Uint8Array(rendererScript().bytes), {
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      // The URL carries the renderer's version: a new version is a new URL.
      'cache-control': 'public, max-age=31536000, immutable',
    },
  });
}
