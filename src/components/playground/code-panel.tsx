'use client';
import * as React from 'react';
import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/toaster';
import { toCurl, toFetch, toPython, toSdk, type CodeRequest } from './copy-as-code';

const LANGUAGES = [
  { id: 'curl', label: 'curl', render: toCurl },
  { id: 'javascript', label: 'JavaScript', render: toFetch },
  { id: 'python', label: 'Python', render: toPython },
  { id: 'sdk', label: 'SDK', render: toSdk },
] as const;

/** The request as filled, as code (the key elided: it reads ROOMTONE_API_KEY from the environment). */
export function CodePanel(request: CodeRequest) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Copy as code</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="mb-2 text-xs text-muted-foreground">
          The exact /v1 request for the form as filled. Set ROOMTONE_API_KEY to a {`rt_test_…`} or {`rt_live_…`} key on your server (never in a browser); files are read from the working directory.
        </p>
        <Tabs defaultValue="curl">
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
              <TabsContent key={l.id} value={l.id} className="relative">
                <pre data-testid={`code-${l.id}`} tabIndex={0} aria-label={`${l.label} code`} className="max-h-96 overflow-auto rounded-md bg-muted p-3 text-xs">
                  {code}
                </pre>
                <Button
                  size="sm"
                  variant="outline"
                  className="absolute top-2 right-2"
                  onClick={() => {
                    void navigator.clipboard?.writeText(code).then(
                      () => toast.success(`${l.label} copied`),
                      () => toast.error('Copy failed: select the text instead'),
                    );
                  }}
                >
                  <Copy aria-hidden /> Copy {l.label}
                </Button>
              </TabsContent>
            );
          })}
        </Tabs>
      </CardContent>
    </Card>
  );
}
