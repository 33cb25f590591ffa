'use client';
import * as React from 'react';
import type { CreationKind } from '@/shared/playground/playground-inputs';

/** One of the member's recent playground runs, as this browser remembers it. */
export interface HistoryEntry {
  id: string;
  kind: CreationKind;
  createdAt: number;
  /** The input as sent: a small JPEG data URL of a file, or the https URL given. null if unreadable. */
  input: string | null;
  status: string;
  costAmount: number | null;
  livemode: boolean;
}

const LIMIT = 8;
/** Long side of the kept input: enough for the before/after of a run opened again, small enough for sessionStorage. */
const KEPT_SIDE = 640;

const storageKey = (scope: string) => `roomtone.playground.history.${scope}`;

/**
 * The history lives in the tab's sessionStorage (per organization and mode), because the
 * service never keeps received images: the input thumbnail and the "before" of a run opened
 * again exist only where the image was chosen. Status and cost follow the generation as the
 * playground reads it. A reload keeps it; closing the tab forgets it, so the member's photos are
 * not left behind for the next person at a shared browser (Generations lists every run).
 */
function read(scope: string): HistoryEntry[] {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(storageKey(scope)) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as HistoryEntry[]) : [];
  } catch {
    return [];
  }
}

const listeners = new Set<() => void>();
const cache = new Map<string, HistoryEntry[]>();

function write(scope: string, entries: HistoryEntry[]): void {
  let kept = entries.slice(0, LIMIT);
  // A full storage drops the oldest entries' images first, then entries.
  for (;;) {
    try {
      sessionStorage.setItem(storageKey(scope), JSON.stringify(kept));
      break;
    } catch {
      const withImage = kept.findLastIndex((e) => e.input?.startsWith('data:'));
      if (withImage >= 0) kept = kept.map((e, i) => (i === withImage ? { ...e, input: null } : e));
      else if (kept.length > 1) kept = kept.slice(0, -1);
      else break;
    }
  }
  cache.set(scope, kept);
  for (const listener of listeners) listener();
}

export function addHistoryEntry(scope: string, entry: HistoryEntry): void {
  write(scope, [entry, ...read(scope).filter((e) => e.id !== entry.id)]);
}

/** Status and cost of an entry as the run is followed, or its kept input once made. */
export function updateHistoryEntry(scope: string, id: string, change: Partial<Pick<HistoryEntry, 'status' | 'costAmount' | 'input'>>): void {
  const entries = read(scope);
  const entry = entries.find((e) => e.id === id);
  if (!entry || Object.entries(change).every(([k, v]) => entry[k as keyof HistoryEntry] === v)) return;
  write(
    scope,
    entries.map((e) => (e.id === id ? { ...e, ...change } : e)),
  );
}

const NONE: HistoryEntry[] = [];

export function useRunHistory(scope: string): HistoryEntry[] {
  return React.useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => {
      const cached = cache.get(scope);
      if (cached) return cached;
      const entries = read(scope);
      cache.set(scope, entries);
      return entries;
    },
    () => NONE,
  );
}

/** The input as the history keeps it: a file downscaled to a JPEG data URL; a URL as it is. */
export async function keptInput(source: { type: 'file'; file: Blob } | { type: 'url' | 'output'; url: string }): Promise<string | null> {
  if (source.type !== 'file') return source.url;
  try {
    const bitmap = await createImageBitmap(source.file);
    const scale = Math.min(1, KEPT_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return canvas.toDataURL('image/jpeg', 0.8);
  } catch {
    return null;
  }
}
