// Preloaded into a test server (node --expose-gc --import this file): a full garbage collection
// every GC_PRESSURE_MS (200 ms by default). A deadline whose timer only a weak reference holds
// (Node 20's AbortSignal.any over AbortSignal.timeout) is then collected while a backend call
// hangs, as it is at random in production: the deadline tests fail on it every time.
if (typeof globalThis.gc !== 'function') throw new Error('test/backends/gc-pressure.mjs needs node --expose-gc');
setInterval(() => globalThis.gc(), Number(process.env.GC_PRESSURE_MS ?? 200)).unref();
