/**
 * Whether this process was started by the launcher (`npm start`), which runs Next.js inside its
 * own web server. Next.js loads instrumentation.ts in its own module graph, so the mark lives
 * on globalThis, which both graphs share.
 */
const state = globalThis as unknown as { roomtoneLaunched?: true };

export function markLaunched(): void {
  state.roomtoneLaunched = true;
}

export function launchedByLauncher(): boolean {
  return state.roomtoneLaunched === true;
}
