import type { ReactNode } from 'react';

export const metadata = { title: 'Roomtone', description: 'Image transformations for interior images' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: 0, background: '#f7f6f3', color: '#1d1d1f' }}>{children}</body>
    </html>
  );
}
