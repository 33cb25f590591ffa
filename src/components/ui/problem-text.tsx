'use client';
import * as React from 'react';
import { problemSentence, type Problem } from '@/console-client/problems';
import { cn } from './cn';

/**
 * A refusal under the field it is about: a sentence, then "Details" with the API's code, its
 * message and the request id (what a developer quotes to support or looks up in the request log).
 */
export function ProblemText({ problem, param, prefix, id, className, testId }: { problem: Problem; param?: string; prefix?: string; id?: string; className?: string; testId?: string }) {
  const sentence = problemSentence(problem, param);
  return (
    <div id={id} role="alert" data-testid={testId} className={cn('grid gap-0.5 text-xs', className)}>
      <p className="font-medium text-destructive">
        {prefix ? `${prefix} ` : null}
        {sentence}
      </p>
      <details className="text-muted-foreground">
        <summary className="w-fit cursor-pointer">Details</summary>
        <p className="mt-1 break-all">
          Code <code>{problem.code}</code>
          {problem.message && problem.message !== sentence ? <>: {problem.message}</> : null}
          {problem.requestId ? (
            <>
              {' '}
              · request <code>{problem.requestId}</code>
            </>
          ) : null}
          {problem.checkedInBrowser ? ' · checked in your browser, nothing was uploaded' : null}
        </p>
      </details>
    </div>
  );
}
