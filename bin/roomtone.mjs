#!/usr/bin/env node
// `npx roomtone …` from the project root: the compiled CLI (scripts/build-server.mjs, rebuilt
// when a source changed) in this very process, so signals reach `roomtone worker` directly and
// it drains and exits 0.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureServerBuild, SERVER_OUT } from '../scripts/build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await ensureServerBuild(root);
await import(pathToFileURL(path.join(root, SERVER_OUT, 'cli.js')).href);
