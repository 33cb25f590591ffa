import * as React from 'react';
import { Link } from '@/components/ui/link';

/** The frame of the signed-out pages: product name, a title, the form. */
export function AuthCard({ title, description, children, footer }: { title: string; description?: React.ReactNode; children: React.ReactNode; footer?: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 p-4">
      <div className="w-full max-w-sm">
        <p className="mb-6 text-center text-lg font-semibold">
          <Link href="/" className="focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
            Roomtone
          </Link>
        </p>
        <section className="rounded-lg border bg-card p-6 shadow-sm">
          <h1 className="text-xl font-semibold">{title}</h1>
          {description ? <p className="mt-1 text-sm text-muted-foreground">{description}</p> : null}
          <div className="mt-5">{children}</div>
        </section>
        {footer ? <div className="mt-4 text-center text-sm text-muted-foreground">{footer}</div> : null}
      </div>
    </main>
  );
}
