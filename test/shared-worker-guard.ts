/**
 * Setup of the `integration-shared` project, whose files share their worker process
 * (`isolate: false`, vitest.config.ts): a file there declares `@worker-process shared`
 * (scripts/worker-process.mjs), and this holds it to that. A file that ends with the environment,
 * the clock or the timers other than it found them, or with a server listening or a child
 * process running that it started, fails here, so the next file in the process never sees it.
 */
import { afterAll, expect, vi } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { clock } from '@/server/platform/clock';
// First, so what it sets (DATABASE_URL, PUBLIC_BASE_URL, APP_SECRET) is part of what the file finds.
import './support';

/** Handles that outlive a file only if it left something running: servers and child processes. */
const LASTING = new Set(['TCPServerWrap', 'PipeServerWrap', 'ProcessWrap', 'UDPWrap']);
const lasting = () => process.getActiveResourcesInfo().filter((kind) => LASTING.has(kind)).sort();

/** Set once by a library as it first loads, whichever file loads it (libvips, under sharp, sets its home). */
const SET_BY_LIBRARIES = new Set(['VIPSHOME']);
const environment = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !SET_BY_LIBRARIES.has(name)));

const env = environment();
const handles = lasting();

/**
 * Whether the shared clock reads real time, twice a few milliseconds apart (a frozen clock falls
 * behind): each reading lies between two of Date.now taken around it, so a pause of the process
 * between the calls (a loaded machine) cannot fail it, and no tolerance is needed.
 */
async function clockReal(): Promise<boolean[]> {
  const reading = () => {
    const before = Date.now();
    const at = clock.nowMs();
    return at >= before && at <= Date.now();
  };
  const first = reading();
  await sleep(20);
  return [first, reading()];
}

afterAll(async () => {
  const found = 'a file sharing its worker process (@worker-process shared) must leave it as it found it';
  expect(vi.isFakeTimers(), `${found}: fake timers still on`).toBe(false);
  expect(environment(), `${found}: the environment changed`).toEqual(env);
  expect(await clockReal(), `${found}: the clock was moved or frozen`).toEqual([true, true]);
  expect(lasting(), `${found}: a server or child process it started is still there`).toEqual(handles);
});
