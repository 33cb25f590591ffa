'use client';
import * as React from 'react';
import { Input } from './input';
import { Label } from './label';

/** A labelled text filter that commits 400 ms after typing stops (or on Enter), and follows its URL value. */
export function DebouncedField({ id, label, value, onCommit, placeholder }: { id: string; label: string; value: string; onCommit: (value: string) => void; placeholder?: string }) {
  const [draft, setDraft] = React.useState(value);
  const [synced, setSynced] = React.useState(value);
  if (synced !== value) {
    // The URL changed (e.g. Clear filters): show it (state set during render, React's documented pattern).
    setSynced(value);
    setDraft(value);
  }
  React.useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => onCommit(draft.trim()), 400);
    return () => clearTimeout(timer);
  }, [draft, value, onCommit]);
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={draft} placeholder={placeholder} onChange={(e) => setDraft(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && onCommit(draft.trim())} />
    </div>
  );
}
