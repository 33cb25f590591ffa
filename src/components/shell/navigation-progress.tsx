'use client';
import * as React from 'react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';

/** The moving bar along the top of the window (also the loading state's, page-loading.tsx). */
export function TopBar(props: { role?: 'status'; 'aria-label'?: string; 'data-testid'?: string }) {
  return (
    <div className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-primary/20" aria-hidden={props.role ? undefined : true} {...props}>
      <div className="h-full w-1/3 bg-primary motion-safe:animate-[page-loading_1.2s_ease-in-out_infinite]" />
    </div>
  );
}

const StartContext = React.createContext<(href: string) => void>(() => undefined);

/** The address as the router compares it: path and query, without the fragment. */
function routeOf(href: string): string | null {
  const url = new URL(href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  return url.pathname + url.search;
}

function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * Navigation feedback from the click itself: Next shows a screen's loading state only once the
 * route's prefetch has arrived, so with latency the old page would stay with nothing moving.
 * The bar shows as soon as a console link is clicked (or `useConsoleRouter` navigates) and goes
 * when the address changes, i.e. when the next screen (or its loading state) is there.
 */
export function NavigationProgress({ children }: { children: React.ReactNode }) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const current = search ? `${pathname}?${search}` : pathname;
  const [pending, setPending] = React.useState(false);
  // The router shows another address: the next screen (or its loading state) is there.
  const [shownFor, setShownFor] = React.useState(current);
  if (shownFor !== current) {
    setShownFor(current);
    setPending(false);
  }

  const start = React.useCallback((href: string) => {
    const target = routeOf(href);
    const here = routeOf(window.location.href);
    if (target !== null && target !== here && target.startsWith('/o/')) setPending(true);
  }, []);

  React.useEffect(() => {
    // Links (next/link and plain anchors) anywhere in the console: captured before Link's own
    // handler prevents the browser's default.
    const onClick = (event: MouseEvent) => {
      if (!isPlainClick(event) || !(event.target instanceof Element)) return;
      const anchor = event.target.closest('a[href]');
      // `data-in-page`: a link the screen handles itself (the playground's recent runs) unless opened elsewhere.
      if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download') || anchor.hasAttribute('data-in-page') || (anchor.target && anchor.target !== '_self')) return;
      start(anchor.href);
    };
    // Back and forward replace whatever navigation was started.
    const onPopState = () => setPending(false);
    document.addEventListener('click', onClick, true);
    window.addEventListener('popstate', onPopState);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', onPopState);
    };
  }, [start]);

  return (
    <StartContext.Provider value={start}>
      {pending ? <TopBar role="status" aria-label="Opening the page" data-testid="navigation-progress" /> : null}
      {children}
    </StartContext.Provider>
  );
}

/** `router.push` / `router.replace` of console screens, with the navigation bar from the call. */
export function useConsoleRouter(): { push: (href: string) => void; replace: (href: string) => void } {
  const router = useRouter();
  const start = React.useContext(StartContext);
  return React.useMemo(
    () => ({
      push: (href: string) => {
        start(href);
        router.push(href);
      },
      replace: (href: string) => {
        start(href);
        router.replace(href);
      },
    }),
    [router, start],
  );
}
