/**
 * The SDK's types, generated from the OpenAPI document of /v1 (the same document
 * GET /v1/openapi.json serves), so a route or field added to the API reaches @roomtone/sdk by
 * regenerating: `npm run sdk:types`. scripts/sdk-types.test.ts fails while the committed file
 * differs from what this produces.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from '@/server/doors/http/openapi';

export const SDK_TYPES_PATH = path.resolve(import.meta.dirname, '..', 'sdk', 'src', 'generated', 'openapi.ts');

/** A fixed base URL: the servers and the code samples do not change the types, and the output stays stable. */
const BASE_URL = 'https://roomtone.example';

const HEADER = `/**
 * Generated from the Roomtone OpenAPI document (GET /v1/openapi.json) by openapi-typescript.
 * Do not edit: run \`npm run sdk:types\` at the repository root.
 */

`;

export async function renderSdkTypes(): Promise<string> {
  const document = structuredClone(openApiDocument(BASE_URL));
  const ast = await openapiTS(document as never, { alphabetize: false, exportType: true, rootTypes: false });
  return HEADER + astToString(ast);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  fs.writeFileSync(SDK_TYPES_PATH, await renderSdkTypes());
  console.log(`wrote ${path.relative(process.cwd(), SDK_TYPES_PATH)}`);
}
