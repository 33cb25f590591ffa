/**
 * `npm start`: compiles the server if a source changed (scripts/build-server.mjs, about a
 * second), then runs the launcher (src/server/main/launcher.ts) from that build.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureServerBuild, SERVER_OUT } from './build-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
await ensureServerBuild(root);
const { launch } = await import(pathToFileURL(path.join(root, SERVER_OUT, 'launcher.js')).href);
launch(root);
