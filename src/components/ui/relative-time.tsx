'use client';
import * as React from 'react';
import { dateTime, dateTimeMs, relativeTime } from '@/console-client/format';
import { useHydrated } from './use-hydrated';
import { cn } from './cn';

/** Every relative time on a screen moves on together, once a minute. */
function useMinuteClock(): number {
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * A time as people scan it: relative and local ("5 minutes ago"), with the exact UTC time on
 * hover (title) and in `dateTime`. Before hydration it shows the UTC time, which the server and
 * the browser agree on (the browser's zone and clock are not known on the server).
 */
export function RelativeTime({ seconds, ms, precise = false, empty = '—', className }: { seconds?: number | null; ms?: number | null; precise?: boolean; empty?: string; className?: string }) {
  const hydrated = useHydrated();
  const now = useMinuteClock();
  const at = ms ?? (seconds === null || seconds === undefined ? null : seconds * 1000);
  if (at === null) return <span className={className}>{empty}</span>;
  const exact = precise ? dateTimeMs(at) : dateTime(Math.floor(at / 1000));
  return (
    <time dateTime={new Date(at).toISOString()} title={exact} className={cn('whitespace-nowrap', className)}>
      {hydrated ? relativeTime(at, now) : exact}
    </time>
  );
}
