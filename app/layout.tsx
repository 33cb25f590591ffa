import type { ReactNode } from 'react';
import { Providers } from '@/components/shell/providers';
import './globals.css';

export const metadata = { title: 'Roomtone console', description: 'Image transformations for interior images' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // next-themes sets the class before hydration: the attribute differs from the server's by design.
    <html lang="en" suppressHydrationWarning>
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
