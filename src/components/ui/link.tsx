'use client';
import * as React from 'react';
import NextLink from 'next/link';
import { useRouter } from 'next/navigation';
import { PrefetchKind } from 'next/dist/client/components/router-reducer/router-reducer-types';

type LinkProps = Omit<React.ComponentProps<typeof NextLink>, 'href' | 'prefetch'> & { href: string };

/**
 * The app's in-app link: next/link that prefetches its route on intent (the pointer entering it,
 * keyboard focus, a touch starting on it) instead of when it scrolls into view. Next's default
 * prefetches every link on screen, and each console page would ask the server to render about
 * twenty route prefetches (the sidebar alone has eleven screens, each a route tree and a segment)
 * for the one or two a member opens.
 *
 * The intent's prefetch is a whole one (`PrefetchKind.FULL`: the screen with its server-rendered
 * data), not Next's default for a dynamic route, which stops at the loading state: with only that,
 * a click showed the skeleton and React holds a Suspense fallback on screen at least 300 ms before
 * revealing what replaces it, so every screen took a third of a second however fast its data came.
 * Freshness: docs/console.md, "Prefetch on intent".
 */
export function Link({ href, onMouseEnter, onFocus, onTouchStart, ...props }: LinkProps) {
  const router = useRouter();
  // The router keeps what it prefetched (at least 30 s): a second hover meanwhile asks nothing of the server.
  const prefetch = () => router.prefetch(href, { kind: PrefetchKind.FULL });
  return (
    <NextLink
      {...props}
      href={href}
      prefetch={false}
      onMouseEnter={(event) => {
        onMouseEnter?.(event);
        prefetch();
      }}
      onFocus={(event) => {
        onFocus?.(event);
        prefetch();
      }}
      onTouchStart={(event) => {
        onTouchStart?.(event);
        prefetch();
      }}
    />
  );
}
