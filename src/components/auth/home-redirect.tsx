'use client';
import * as React from 'react';
import { useRouter } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import { apiErrorOf, useTRPC, errorStatus } from '@/app-client/trpc';
import { LoadingRows } from '@/components/ui/states';

/** `/`: signed out → sign-in; signed in → the first organization's overview (test mode). */
export function HomeRedirect() {
  const trpc = useTRPC();
  const router = useRouter();
  const me = useQuery(trpc.me.get.queryOptions());
  React.useEffect(() => {
    if (me.isError && errorStatus(me.error) === 401) router.replace(apiErrorOf(me.error)?.code === 'second_factor_required' ? '/sign-in/two-factor' : '/sign-in');
    else if (me.data) {
      const first = me.data.organizations[0];
      router.replace(first ? `/o/${first.id}/test/overview` : '/sign-up');
    }
  }, [me.isError, me.error, me.data, router]);
  return (
    <main className="mx-auto max-w-md p-8">
      <h1 className="sr-only">Roomtone console</h1>
      {me.isError && errorStatus(me.error) !== 401 ? <p role="alert">Could not reach the console: {me.error.message}</p> : <LoadingRows rows={3} label="Opening the console" />}
    </main>
  );
}
