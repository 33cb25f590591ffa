'use client';
import * as React from 'react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';

/**
 * A screen's filters live in the URL (`?status=failed&path=/v1/renders`), so links from other
 * screens (overview's errors → log) and reloads land on the same view.
 */
export function useUrlFilters<K extends string>(keys: readonly K[]): [Partial<Record<K, string>>, (patch: Partial<Record<K, string | undefined>>) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const values = React.useMemo(() => {
    const out: Partial<Record<K, string>> = {};
    for (const key of keys) {
      const value = params.get(key);
      if (value) out[key] = value;
    }
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keys is a constant list
  }, [params]);
  const set = React.useCallback(
    (patch: Partial<Record<K, string | undefined>>) => {
      const next = new URLSearchParams(params.toString());
      for (const [key, value] of Object.entries(patch) as [K, string | undefined][]) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      const query = next.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [params, router, pathname],
  );
  return [values, set];
}
