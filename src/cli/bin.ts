import { runCli } from './main';

// `npx roomtone …` (bin/roomtone.mjs) and `npm run roomtone -- …`: one command, then exit with its code.
process.exit(await runCli(process.argv.slice(2)));
