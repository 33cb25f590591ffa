'use client';
import * as React from 'react';
import { Copy } from 'lucide-react';
import { Button, type ButtonProps } from './button';
import { toast } from './toaster';

/** Copies `text` to the clipboard and says so (or says how to copy by hand). */
export function CopyButton({ text, label = 'Copy', copied = 'Copied', ...props }: { text: string; label?: string; copied?: string } & Omit<ButtonProps, 'onClick'>) {
  return (
    <Button
      variant="outline"
      size="sm"
      {...props}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => toast.success(copied),
          () => toast.error('Could not copy; select the text and copy it.'),
        );
      }}
    >
      <Copy aria-hidden /> {label}
    </Button>
  );
}
