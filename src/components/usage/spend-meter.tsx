import { money } from '@/console-client/format';

/** Spend against the monthly limit: the figure and a meter (red from 90 %). */
export function SpendMeter({ spent, limit }: { spent: number; limit: number }) {
  const percent = limit > 0 ? Math.min(100, Math.round((spent / limit) * 100)) : 0;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-2xl font-semibold" data-testid="month-spend">
        {money(spent)} <span className="text-sm font-normal text-muted-foreground">of {money(limit)}</span>
      </p>
      <div role="meter" aria-label="Spend against the monthly limit" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 overflow-hidden rounded-full bg-muted">
        <div className={percent >= 90 ? 'h-full bg-destructive' : 'h-full bg-primary'} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
