'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { signOut } from 'next-auth/react';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Building2, LogOut, Plus } from 'lucide-react';
import { createOrganizationInput } from '@/shared/console/console-inputs';
import { apiErrorOf, useTRPC } from '@/console-client/trpc';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form';

/**
 * What a signed-in user sees where they have no membership: an organization they were removed
 * from (or never joined), or `/` without any organization. It says what happened and offers the
 * ways on: their other organizations, or signing out. Nothing about the organization in the URL
 * is shown beyond its id (it may not exist, or be someone else's).
 */
export function NoMembership({
  organizationId,
  organizations,
  mode = 'test',
  canCreateOrganization,
}: {
  organizationId?: string;
  organizations: { id: string; name: string; role: string }[];
  mode?: 'test' | 'live';
  /** Open sign-up: the user may open an organization of their own here. */
  canCreateOrganization: boolean;
}) {
  const [first, ...others] = organizations;
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col gap-4 p-4 sm:p-8" data-testid="no-membership">
      <h1 className="text-xl font-semibold">{organizationId ? 'You are not a member of this organization' : 'You are not a member of any organization'}</h1>
      <p className="text-muted-foreground">
        {organizationId ? (
          <>
            Your account has no access to <code className="break-all">{organizationId}</code>: you were removed from it, or it is not yours.{' '}
          </>
        ) : (
          <>Your account is not in an organization any more: you were removed from the last one. </>
        )}
        An owner or admin of an organization can invite you (again).
      </p>
      {first ? (
        <section aria-labelledby="your-organizations" className="flex flex-col gap-2">
          <h2 id="your-organizations" className="font-medium">
            Your organizations
          </h2>
          <Button asChild className="self-start">
            <Link href={`/o/${first.id}/${mode}/overview`}>
              <Building2 aria-hidden /> Go to {first.name}
            </Link>
          </Button>
          {others.length > 0 ? (
            <ul className="flex flex-col gap-1 text-sm">
              {others.map((o) => (
                <li key={o.id}>
                  <Link className="text-primary underline underline-offset-4" href={`/o/${o.id}/${mode}/overview`}>
                    {o.name}
                  </Link>{' '}
                  <span className="text-muted-foreground">({o.role})</span>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
      {canCreateOrganization ? <CreateOrganization /> : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void signOut({ redirectTo: '/sign-in' })}>
          <LogOut aria-hidden /> Sign out
        </Button>
      </div>
    </main>
  );
}

/** Open an organization of one's own (its owner), then go there. */
function CreateOrganization() {
  const trpc = useTRPC();
  const router = useRouter();
  const form = useForm({ resolver: zodResolver(createOrganizationInput), defaultValues: { name: '' } });
  const create = useMutation(
    trpc.organizations.create.mutationOptions({
      onSuccess: (created) => router.push(`/o/${created.id}/test/overview`),
      onError: (error) => {
        const apiError = apiErrorOf(error);
        if (apiError?.param === 'name') form.setError('name', { message: apiError.message });
      },
    }),
  );
  const refusal = create.error && apiErrorOf(create.error)?.param !== 'name' ? create.error.message : null;
  return (
    <section aria-labelledby="create-organization" className="flex flex-col gap-2">
      <h2 id="create-organization" className="font-medium">
        Create an organization
      </h2>
      <form onSubmit={form.handleSubmit((values) => create.mutate(values))} className="flex flex-col gap-3" noValidate>
        <FormError message={refusal} />
        <TextField control={form.control} name="name" label="Organization name" placeholder="e.g. Studio Interiors" />
        <Button type="submit" className="self-start" disabled={create.isPending}>
          <Plus aria-hidden /> Create and open it
        </Button>
      </form>
    </section>
  );
}
