'use client';
import { Input } from './input';
import { Label } from './label';

/** "From" and "To" (UTC) filters of a list, as datetime-local values kept in the URL. */
export function TimeRangeFields({
  idPrefix,
  from,
  to,
  onChange,
}: {
  idPrefix: string;
  from: string | undefined;
  to: string | undefined;
  onChange: (patch: { from?: string | undefined; to?: string | undefined }) => void;
}) {
  return (
    <>
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-from`}>From (UTC)</Label>
        <Input id={`${idPrefix}-from`} type="datetime-local" value={from ?? ''} onChange={(e) => onChange({ from: e.target.value || undefined })} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-to`}>To (UTC)</Label>
        <Input id={`${idPrefix}-to`} type="datetime-local" value={to ?? ''} onChange={(e) => onChange({ to: e.target.value || undefined })} />
      </div>
    </>
  );
}
