import * as React from 'react';

/** A detail sheet's term/value pairs: terms in a fixed-width column, values breaking anywhere. */
export function DetailList({ rows, termWidth }: { rows: [string, React.ReactNode][]; termWidth: '7rem' | '8rem' }) {
  return (
    <dl className={`grid ${termWidth === '7rem' ? 'grid-cols-[7rem_1fr]' : 'grid-cols-[8rem_1fr]'} gap-x-4 gap-y-2 text-sm`}>
      {rows.map(([term, value]) => (
        <React.Fragment key={term}>
          <dt className="text-muted-foreground">{term}</dt>
          <dd className="break-all">{value}</dd>
        </React.Fragment>
      ))}
    </dl>
  );
}
