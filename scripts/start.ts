/** `npm start`: the launcher (src/server/main/launcher.ts), with the project root it serves. */
// First: it keeps the engine's Date before Next.js wraps it (platform/native-date.ts).
import '@/server/platform/native-date';
import path from 'node:path';
import { launch } from '@/server/main/launcher';

launch(path.resolve(import.meta.dirname, '..'));
