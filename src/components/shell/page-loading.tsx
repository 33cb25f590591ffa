import * as React from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { TopBar } from './navigation-progress';

/**
 * Navigation feedback: a bar along the top of the window and the skeleton of a screen, from the
 * click until the next screen is there (Next renders this loading state at once; the old page
 * does not stay).
 */
export function PageLoading() {
  return (
    <div role="status" aria-label="Loading the page" data-testid="page-loading">
      <TopBar />
      <Skeleton className="mb-2 h-8 w-48" />
      <Skeleton className="mb-8 h-4 w-80 max-w-full" />
      <div className="flex flex-col gap-3">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    </div>
  );
}
