'use client';
import { Toaster as Sonner } from 'sonner';
import { useTheme } from 'next-themes';

export { toast } from 'sonner';

/** Results of mutations (key created, member invited, …) as toasts, in the current theme. */
export function Toaster() {
  const { resolvedTheme } = useTheme();
  return <Sonner theme={resolvedTheme === 'dark' ? 'dark' : 'light'} richColors closeButton position="bottom-right" />;
}
