'use client';
import * as React from 'react';
import { Copy, Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/toaster';
import { toCurl, toFetch, toPython, toSdk, type CodeRequest } from '@/shared/playground/copy-as-code';

const LANGUAGES = [
  { id: 'curl', label: 'curl', render: toCurl },
  { id: 'javascript', label: 'JavaScript', render: toFetch },
  { id: 'python', label: 'Python', render: toPython },
  { id: 'sdk', label: 'SDK', render: toSdk },
] as const;

/** A file the copied code reads that only the browser has (the painted mask): offered for download beside the code. */
export interface CodeFile {
  name: string;
  label: string;
  read: () => Promise<Blob>;
}

async function download(file: CodeFile): Promise<void> {
  const url = URL.createObjectURL(await file.read());
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  a.click();
  // The click has handed the blob to the download; a tick later it can go.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The request as filled, as code (the key elided: it reads ROOMTONE_API_KEY from the environment). */
export function CodePanel({ files = [], waitingFor = null, ...request }: CodeRequest & { files?: CodeFile[]; waitingFor?: string | null }) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Copy as code</CardTitle>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-2">
        <p className="text-xs text-muted-foreground">
          The exact /v1 request for the form as filled. Set ROOMTONE_API_KEY to a {`rt_test_…`} or {`rt_live_…`} key on your server (never in a browser); files are read from the working directory.
        </p>
        {waitingFor ? (
          <p className="text-sm font-medium" data-testid="code-waits">
            {waitingFor}
          </p>
        ) : null}
        {files.length > 0 ? (
          <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="code-files">
            {files.map((f) => (
              <Button key={f.name} size="sm" variant="outline" onClick={() => void download(f).catch((error: unknown) => toast.error(error instanceof Error ? error.message : String(error)))}>
                <Download aria-hidden /> {f.label}
              </Button>
            ))}
            <span className="text-muted-foreground">Save it beside the code: it is the painted mask, in the five palette colours only.</span>
          </div>
        ) : null}
        <Tabs defaultValue="curl" className="min-w-0">
          <TabsList aria-label="Language">
            {LANGUAGES.map((l) => (
              <TabsTrigger key={l.id} value={l.id}>
                {l.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {LANGUAGES.map((l) => {
            const code = l.render(request);
            return (
              // The panel is not a tab stop of its own: its code block is.
              <TabsContent key={l.id} value={l.id} tabIndex={-1} className="grid min-w-0 gap-2">
                <div className="flex justify-end">
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={waitingFor !== null}
                    onClick={() => {
                      void navigator.clipboard?.writeText(code).then(
                        () => toast.success(`${l.label} copied`),
                        () => toast.error('Copy failed: select the text instead'),
                      );
                    }}
                  >
                    <Copy aria-hidden /> Copy {l.label}
                  </Button>
                </div>
                {/* Long lines scroll inside this box (never the page). */}
                <pre
                  data-testid={`code-${l.id}`}
                  tabIndex={0}
                  aria-label={`${l.label} code`}
                  className="max-h-96 max-w-full min-w-0 overflow-auto rounded-md bg-muted p-3 text-xs focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                >
                  {code}
                </pre>
              </TabsContent>
            );
          })}
        </Tabs>
      </CardContent>
    </Card>
  );
}
