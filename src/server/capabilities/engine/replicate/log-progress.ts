/**
 * A prediction's progress from its logs, where the model prints it: diffusion models print tqdm
 * bars (" 45%|████▌     | 23/50 [00:05<00:06, 4.1it/s]"). The last bar in the logs is the
 * current one; a model that prints none has no progress to give (null). Models with several
 * bars (e.g. a refiner after the base) restart at 0 %: the reporter keeps the highest value.
 */
const BAR = /(\d{1,3})%\|[^|\n\r]*\|\s*(\d+)\/(\d+)/g;
const PERCENT = /(\d{1,3}(?:\.\d+)?)\s?%/g;

export function progressFromLogs(logs: string | null | undefined): number | null {
  if (!logs) return null;
  const tail = logs.slice(-4_000);
  let last: RegExpExecArray | null = null;
  for (const m of tail.matchAll(BAR)) last = m;
  if (last) {
    const done = Number(last[2]);
    const total = Number(last[3]);
    if (total > 0 && done <= total) return done / total;
  }
  let percent: RegExpExecArray | null = null;
  for (const m of tail.matchAll(PERCENT)) percent = m;
  if (percent) {
    const value = Number(percent[1]);
    if (value >= 0 && value <= 100) return value / 100;
  }
  return null;
}
