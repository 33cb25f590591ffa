'use client';
import * as React from 'react';
import NextLink from 'next/link';
import { useRouter } from 'next/navigation';

type LinkProps = Omit<React.ComponentProps<typeof NextLink>, 'href' | 'prefetch'> & { href: string };

/**
 * The app's in-app link: next/link that prefetches its route on intent (the pointer entering it,
 * keyboard focus, a touch starting on it) instead of when it scrolls into view. Next's default
 * prefetches every link on screen, and each console page would ask the server to render about
 * twenty route prefetches (the sidebar alone has eleven screens, each a route tree and a segment)
 * for the one or two a member opens. The intent comes a few hundred milliseconds before the
 * click, enough for the prefetch (the screen's loading state) to be there. docs/console.md, "The shell".
 */
export function Link({ href, onMouseEnter, onFocus, onTouchStart, ...props }: LinkProps) {
  const router = useRouter();
  // The router keeps what it prefetched: a second hover asks nothing of the server.
  const prefetch = () => router.prefetch(href);
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
