/**
 * "Copy as code": the playground's request as the /v1 call a developer makes, in curl,
 * JavaScript (fetch), Python (requests) and the official SDK (@roomtone/sdk); the API reference
 * also shows the Python client (`roomtone`, sdk-python/). Framework-free
 * (the OpenAPI document's examples use the same renderers). The key is never included
 * (`$ROOMTONE_API_KEY` / `process.env` / `os.environ`); a request with a file becomes
 * multipart/form-data exactly as /v1 takes it: each file a part named as its field (image, mask,
 * layers[0].element), other parameters text fields, layers / metadata / categories as JSON text.
 */

/** An image field filled with a local file; its name is what the copied code reads from disk. */
export interface FileRef {
  file: string;
}

export interface CodeRequest {
  /** e.g. https://roomtone.example */
  baseUrl: string;
  /** renders, edits, decorations, upscales */
  route: string;
  /** The /v1 body; image, mask and layers[].element may be FileRef. */
  body: Record<string, unknown>;
  idempotencyKey?: string | undefined;
}

export function isFileRef(value: unknown): value is FileRef {
  return typeof value === 'object' && value !== null && 'file' in value && typeof (value as FileRef).file === 'string';
}

const JSON_TEXT_FIELDS = new Set(['layers', 'metadata', 'categories']);

interface Split {
  files: { field: string; file: string }[];
  /** Text fields in order (multipart), values as sent. */
  fields: { name: string; value: string }[];
  /** The JSON body when no file is used. */
  json: Record<string, unknown> | null;
}

function split(body: Record<string, unknown>): Split {
  const files: Split['files'] = [];
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (isFileRef(value)) files.push({ field: key, file: value.file });
    else if (key === 'layers' && Array.isArray(value)) {
      rest.layers = value.map((layer: Record<string, unknown>, i) => {
        if (!isFileRef(layer.element)) return layer;
        files.push({ field: `layers[${i}].element`, file: layer.element.file });
        const { element: _element, ...without } = layer;
        return without;
      });
    } else rest[key] = value;
  }
  if (files.length === 0) return { files, fields: [], json: rest };
  const fields = Object.entries(rest).map(([name, value]) => ({ name, value: JSON_TEXT_FIELDS.has(name) || typeof value !== 'string' ? JSON.stringify(value) : value }));
  return { files, fields, json: null };
}

/** POSIX shell single quotes. */
function sh(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function url(req: CodeRequest): string {
  return `${req.baseUrl.replace(/\/$/, '')}/v1/${req.route}`;
}

export function toCurl(req: CodeRequest): string {
  const { files, fields, json } = split(req.body);
  const lines = [`curl ${sh(url(req))}`, `  -H "Authorization: Bearer $ROOMTONE_API_KEY"`];
  if (req.idempotencyKey) lines.push(`  -H ${sh(`Idempotency-Key: ${req.idempotencyKey}`)}`);
  if (json) {
    lines.push(`  -H 'Content-Type: application/json'`, `  --data-raw ${sh(JSON.stringify(json))}`);
  } else {
    for (const f of files) lines.push(`  -F ${sh(`${f.field}=@${f.file}`)}`);
    // --form-string: a value starting with @ or < is text, never a file to read.
    for (const f of fields) lines.push(`  --form-string ${sh(`${f.name}=${f.value}`)}`);
  }
  return lines.join(' \\\n');
}

/** The end of the JavaScript snippets: the refusal, or the output's URL (the id and status while in progress). */
const PRINT_JS = [
  `const generation = await response.json();`,
  `if (!response.ok) throw new Error(\`\${response.status} \${generation.error.code}: \${generation.error.message}\`);`,
  `// The image once it is ready (a background generation answers 202 while in progress).`,
  `console.log(generation.output[0]?.url ?? \`\${generation.id}: \${generation.status}\`);`,
];

export function toFetch(req: CodeRequest): string {
  const { files, fields, json } = split(req.body);
  const headers = [`Authorization: \`Bearer \${process.env.ROOMTONE_API_KEY}\``];
  if (req.idempotencyKey) headers.push(`'Idempotency-Key': ${JSON.stringify(req.idempotencyKey)}`);
  if (json) {
    headers.push(`'Content-Type': 'application/json'`);
    return [
      `const response = await fetch(${JSON.stringify(url(req))}, {`,
      `  method: 'POST',`,
      `  headers: { ${headers.join(', ')} },`,
      `  body: JSON.stringify(${JSON.stringify(json, null, 2).replace(/\n/g, '\n  ')}),`,
      `});`,
      ...PRINT_JS,
    ].join('\n');
  }
  return [
    `import { openAsBlob } from 'node:fs';`,
    ``,
    `const form = new FormData();`,
    ...files.map((f) => `form.append(${JSON.stringify(f.field)}, await openAsBlob(${JSON.stringify(f.file)}), ${JSON.stringify(f.file)});`),
    ...fields.map((f) => `form.append(${JSON.stringify(f.name)}, ${JSON.stringify(f.value)});`),
    `const response = await fetch(${JSON.stringify(url(req))}, {`,
    `  method: 'POST',`,
    `  headers: { ${headers.join(', ')} },`,
    `  body: form,`,
    `});`,
    ...PRINT_JS,
  ].join('\n');
}

function python(value: unknown, indent = ''): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return String(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((v) => `${inner}${python(v, inner)}`).join(',\n')},\n${indent}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length === 0 ? '{}' : `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${python(v, inner)}`).join(',\n')},\n${indent}}`;
}

export function toPython(req: CodeRequest): string {
  const { files, fields, json } = split(req.body);
  const headers: Record<string, string> = {};
  if (req.idempotencyKey) headers['Idempotency-Key'] = req.idempotencyKey;
  const headerLine = `headers={"Authorization": f"Bearer {os.environ['ROOMTONE_API_KEY']}"${Object.entries(headers)
    .map(([k, v]) => `, ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join('')}},`;
  const lines = ['import os', 'import requests', ''];
  if (json) {
    lines.push(`response = requests.post(`, `    ${JSON.stringify(url(req))},`, `    ${headerLine}`, `    json=${python(json, '    ')},`, `    timeout=300,`, `)`);
  } else {
    lines.push(
      `response = requests.post(`,
      `    ${JSON.stringify(url(req))},`,
      `    ${headerLine}`,
      `    files={`,
      ...files.map((f) => `        ${JSON.stringify(f.field)}: (${JSON.stringify(f.file)}, open(${JSON.stringify(f.file)}, "rb")),`),
      `    },`,
      `    data=${python(Object.fromEntries(fields.map((f) => [f.name, f.value])), '    ')},`,
      `    timeout=300,`,
      `)`,
    );
  }
  lines.push(
    'generation = response.json()',
    'if not response.ok:',
    '    raise SystemExit(f"{response.status_code} {generation[\'error\'][\'code\']}: {generation[\'error\'][\'message\']}")',
    '# The image once it is ready (a background generation answers 202 while in progress).',
    'print(generation["output"][0]["url"] if generation["output"] else f"{generation[\'id\']}: {generation[\'status\']}")',
  );
  return lines.join('\n');
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A JavaScript literal, keys unquoted where they can be. */
function js(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object')) return `[${value.map((v) => js(v)).join(', ')}]`;
    return `[\n${value.map((v) => `${inner}${js(v, inner)}`).join(',\n')},\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${js(v, inner)}`).join(',\n')},\n${indent}}`;
}

/** Files become paths (the SDK reads them and sends multipart); URLs stay URLs. */
function sdkBody(body: Record<string, unknown>): Record<string, unknown> {
  const path = (v: unknown) => (isFileRef(v) ? v.file : v);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (key === 'layers' && Array.isArray(value)) out.layers = value.map((layer: Record<string, unknown>) => ('element' in layer ? { ...layer, element: path(layer.element) } : layer));
    else out[key] = path(value);
  }
  return out;
}

/** The SDK's resources are named as the routes: client.renders, client.edits, … */
export function toSdk(req: CodeRequest): string {
  const options = req.idempotencyKey ? `, { idempotencyKey: ${JSON.stringify(req.idempotencyKey)} }` : '';
  return [
    `import Roomtone from '@roomtone/sdk';`,
    ``,
    `// The key is read from ROOMTONE_API_KEY; file paths are read from the working directory.`,
    `const client = new Roomtone({ baseUrl: ${JSON.stringify(req.baseUrl.replace(/\/$/, ''))} });`,
    ``,
    `const generation = await client.${req.route}.create(${js(sdkBody(req.body))}${options});`,
    `console.log(JSON.stringify(generation, null, 2));`,
  ].join('\n');
}

/** Python's keyword arguments of a creation: files become paths (the client reads them), URLs stay URLs. */
function pythonKeywords(body: Record<string, unknown>, indent: string): string[] {
  return Object.entries(sdkBody(body)).map(([key, value]) => `${indent}${key}=${python(value, indent)},`);
}

/** The Python client (`from roomtone import Roomtone`): the same resources, snake_case. */
export function toPythonSdk(req: CodeRequest): string {
  const keywords = pythonKeywords(req.body, '    ');
  if (req.idempotencyKey) keywords.push(`    idempotency_key=${JSON.stringify(req.idempotencyKey)},`);
  return [
    'from roomtone import Roomtone',
    '',
    '# The key is read from ROOMTONE_API_KEY; file paths are read from the working directory.',
    `client = Roomtone(base_url=${JSON.stringify(req.baseUrl.replace(/\/$/, ''))})`,
    '',
    `generation = client.${req.route}.create(`,
    ...keywords,
    ')',
    'print(generation["id"], generation["status"])',
  ].join('\n');
}
