// `prisma generate` offline: Prisma 7 only needs the schema-engine binary path to exist
// (it never runs it for `generate`); without it the CLI tries to download the binary.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
const result = spawnSync(process.execPath, [cli, 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
