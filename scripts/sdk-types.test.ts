// @node-lines same: CI and test tooling, run by the machine's Node only
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderSdkTypes, SDK_TYPES_PATH } from './sdk-types';

describe('the SDK types generated from the OpenAPI document', () => {
  it('are up to date (run `npm run sdk:types` after changing a /v1 route, field or description)', async () => {
    const committed = fs.readFileSync(SDK_TYPES_PATH, 'utf8');
    expect(committed === (await renderSdkTypes()), 'sdk/src/generated/openapi.ts is stale: run `npm run sdk:types`').toBe(true);
  });
});
