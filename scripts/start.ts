/** `npm start`: the launcher (src/server/main/launcher.ts), with the project root it serves. */
import path from 'node:path';
import { launch } from '@/server/main/launcher';

launch(path.resolve(import.meta.dirname, '..'));
