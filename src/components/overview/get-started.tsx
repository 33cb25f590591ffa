'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { CheckCircle2, Circle } from 'lucide-react';
import type { ConsoleOutputs } from '@/console-client/trpc';
import { useScope } from '@/console-client/scope';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { cn } from '@/components/ui/cn';

type GettingStarted = ConsoleOutputs['overview']['get']['getting_started'];
type StepId = keyof GettingStarted['steps'];

/** The first call: a read that costs nothing, with the organization's own key prefix and base URL. */
export function firstCallCommand(baseUrl: string, testKeyPrefix: string | null): string {
  const key = testKeyPrefix ? `${testKeyPrefix}…` : 'rt_test_…';
  return [`export ROOMTONE_API_KEY="${key}"  # the whole test key, shown once when it was created`, `curl ${baseUrl}/v1/styles \\`, `  -H "Authorization: Bearer $ROOMTONE_API_KEY"`].join('\n');
}

/**
 * "Get started" for a new organization: six steps, each ticked from what really happened
 * (the overview procedure checks the keys, the request log, generations, endpoints, event
 * streams and the ledger). Hidden once every step is done.
 */
export function GetStarted({ state }: { state: GettingStarted }) {
  const scope = useScope();
  const org = `/o/${scope.organizationId}`;
  const manager = scope.role !== 'developer';
  const done = Object.values(state.steps).filter(Boolean).length;
  const total = Object.keys(state.steps).length;
  const command = firstCallCommand(state.base_url, state.test_key_prefix);
  const steps: { id: StepId; title: string; body: React.ReactNode }[] = [
    {
      id: 'create_key',
      title: 'Create an API key',
      body: (
        <>
          A test key calls the API without spending credit. <StepLink href={`${org}/test/keys`}>Open API keys</StepLink>
        </>
      ),
    },
    {
      id: 'first_call',
      title: 'Make your first call',
      body: (
        <div className="flex min-w-0 flex-col gap-2">
          <span>From a terminal, with the whole key you copied when you created it:</span>
          <pre className="overflow-x-auto rounded bg-muted p-2 font-mono text-xs" tabIndex={0} aria-label="First call with curl" data-testid="first-call">
            {command}
          </pre>
          <CopyButton text={command} label="Copy the curl command" className="self-start" />
        </div>
      ),
    },
    {
      id: 'playground',
      title: 'Try the playground',
      body: (
        <>
          Render, edit, decorate or upscale an image of your own and copy the call as code. <StepLink href={`${org}/test/playground`}>Open the playground</StepLink>
        </>
      ),
    },
    {
      id: 'webhook',
      title: 'Receive events',
      body: (
        <>
          Add a webhook endpoint{manager ? null : ' (an owner or admin can)'}, or on your laptop run <code className="text-xs">npx @roomtone/sdk listen</code>.{' '}
          {manager ? <StepLink href={`${org}/test/webhooks`}>Open webhooks</StepLink> : null}
        </>
      ),
    },
    {
      id: 'add_credit',
      title: 'Add credit',
      body: (
        <>
          Live generations are paid from the balance{manager ? '.' : ' (an owner or admin adds credit).'} {manager ? <StepLink href={`${org}/live/billing`}>Open billing</StepLink> : null}
        </>
      ),
    },
    {
      id: 'go_live',
      title: 'Go live',
      body: (
        <>
          Create a live key and send your first live request. <StepLink href={`${org}/live/keys`}>Open live keys</StepLink>
        </>
      ),
    },
  ];
  return (
    <Card aria-labelledby="get-started-title">
      <CardHeader>
        <CardTitle id="get-started-title">Get started</CardTitle>
        <p className="text-sm text-muted-foreground" data-testid="get-started-progress">
          {done} of {total} done. Each step ticks itself off when it has happened.
        </p>
      </CardHeader>
      <CardContent>
        <ol className="flex flex-col gap-4" aria-label="Getting-started steps">
          {steps.map((step) => {
            const ticked = state.steps[step.id];
            return (
              <li key={step.id} className="flex min-w-0 gap-3" data-step={step.id} data-done={ticked ? 'true' : 'false'}>
                {ticked ? <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden /> : <Circle className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />}
                <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
                  <span className={cn('font-medium', ticked && 'text-muted-foreground line-through')}>
                    {step.title}
                    <span className="sr-only">{ticked ? ' (done)' : ' (to do)'}</span>
                  </span>
                  {ticked ? null : <div className="text-muted-foreground">{step.body}</div>}
                </div>
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}

function StepLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Link href={href} className="text-primary underline underline-offset-4">
      {children}
    </Link>
  );
}
