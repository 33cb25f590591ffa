#!/usr/bin/env node
// `npx roomtone …` from the project root: loads the TypeScript CLI in this very process (tsx's
// loader, no wrapper process), so signals reach `roomtone worker` directly and it drains and
// exits 0.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
register({ tsconfig: path.join(root, 'tsconfig.json') });
await import(pathToFileURL(path.join(root, 'src/cli/bin.ts')).href);
