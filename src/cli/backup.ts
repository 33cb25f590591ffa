import { parseArgs } from 'node:util';
import { restoreBackup, writeBackup } from '@/server/tools/backup/backup';
import type { CliContext } from './context';

/** `roomtone backup <file>` and `roomtone restore <file>` (src/server/tools/backup/backup.ts). */
export async function runBackupCommand(command: 'backup' | 'restore', args: string[], context: CliContext): Promise<number> {
  const usage = (message: string) => {
    if (context.json) context.out(JSON.stringify({ error: { code: 'usage', message } }));
    else context.err(`roomtone: ${message}`);
    return 2;
  };
  let parsed;
  try {
    parsed = parseArgs({ args, options: command === 'backup' ? { 'without-secrets': { type: 'boolean' } } : {}, strict: true, allowPositionals: true });
  } catch (error) {
    return usage((error as Error).message);
  }
  if (parsed.positionals.length !== 1) return usage(`${command} takes one file: roomtone ${command} <file>.`);
  const file = parsed.positionals[0]!;
  if (command === 'backup') {
    await context.ready();
    const result = await writeBackup(file, { withSecrets: parsed.values['without-secrets'] !== true });
    const rows = Object.values(result.tables).reduce((sum, n) => sum + n, 0);
    if (context.json) context.out(JSON.stringify({ object: 'backup', ...result }));
    else {
      context.out(`Wrote ${result.file}: ${rows} rows in ${Object.keys(result.tables).length} tables, ${result.blobs} blobs${result.secrets_included ? ', and the secrets (keep the file private)' : ' (without secrets: restoring needs the same APP_SECRET)'}.`);
      if (result.missing_blobs.length > 0) context.err(`${result.missing_blobs.length} blobs were deleted since the snapshot (expired or still uploading): ${result.missing_blobs.join(', ')}`);
    }
    return 0;
  }
  const result = await restoreBackup(file, () => context.ready());
  const rows = Object.values(result.tables).reduce((sum, n) => sum + n, 0);
  if (context.json) context.out(JSON.stringify({ object: 'restore', ...result }));
  else context.out(`Restored ${result.file}: ${rows} rows in ${Object.keys(result.tables).length} tables, ${result.blobs} blobs; ${result.requeued} generations in progress enqueued again.`);
  return 0;
}
