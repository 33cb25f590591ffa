#!/usr/bin/env node
// The command of @roomtone/sdk (`npx @roomtone/sdk listen …`). A file of its own, present before
// the build, so npm links it in a fresh checkout too; the code is the compiled dist/cli.js.
try {
  await import('../dist/cli.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    console.error('@roomtone/sdk is not built: run `npm run build --workspace @roomtone/sdk` (or `npm run build`) first.');
    process.exit(1);
  }
  throw error;
}
