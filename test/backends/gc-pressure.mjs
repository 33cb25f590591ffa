// Preloaded into a test server (node --expose-gc --import this file): once the server is up (its
// start banner; collecting during the start made its database transactions time out on a loaded
// machine), a full garbage collection every GC_PRESSURE_MS (200 ms by default), less often when
// a collection is slow (a fifth of the time collecting), but at least every 750 ms so a deadline
// of a few seconds always sees several collections. A deadline whose timer only a weak reference
// holds (Node 20's AbortSignal.any over AbortSignal.timeout) is then collected while a backend
// call hangs, as it is at random in production: the deadline tests fail on it every time.
if (typeof globalThis.gc !== 'function') throw new Error('test/backends/gc-pressure.mjs needs node --expose-gc');
const every = Number(process.env.GC_PRESSURE_MS ?? 200);
const collect = () => {
  const started = performance.now();
  globalThis.gc();
  setTimeout(collect, Math.min(750, Math.max(every, (performance.now() - started) * 4))).unref();
};
const write = process.stdout.write.bind(process.stdout);
let collecting = false;
process.stdout.write = (chunk, ...rest) => {
  if (!collecting && String(chunk).includes('Roomtone is up')) {
    collecting = true;
    setTimeout(collect, every).unref();
  }
  return write(chunk, ...rest);
};
