/**
 * Keeps the engine's own Date constructor, for the few hot paths that build many dates
 * (platform/db.ts's timestamp parser). Imported first by the launcher's entry (scripts/start.ts),
 * before Next.js replaces the global `Date` with a wrapper; anywhere else the wrapper is used.
 */
const state = globalThis as { roomtoneNativeDate?: DateConstructor };
state.roomtoneNativeDate ??= Date;
