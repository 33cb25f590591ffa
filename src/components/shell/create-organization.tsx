'use client';
import { useConsoleRouter } from './navigation-progress';
import * as React from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { createOrganizationInput } from '@/shared/console/console-inputs';
import { useTRPC } from '@/console-client/trpc';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormError, TextField } from '@/components/ui/form';
import { toast } from '@/components/ui/toaster';

/** "Create organization": a new one owned by the signed-in user, opened at once in test mode. */
export function CreateOrganizationDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const router = useConsoleRouter();
  const queryClient = useQueryClient();
  const form = useForm({ resolver: zodResolver(createOrganizationInput), defaultValues: { name: '' } });
  const create = useMutation(
    trpc.organizations.create.mutationOptions({
      onSuccess: (org) => {
        toast.success(`Organization “${org.name}” created. You are its owner.`);
        onOpenChange(false);
        void queryClient.invalidateQueries({ queryKey: trpc.me.get.queryKey() });
        router.push(`/o/${org.id}/test/overview`);
      },
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (next) {
          form.reset({ name: '' });
          create.reset();
        }
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create an organization</DialogTitle>
          <DialogDescription>A separate workspace with its own keys, balance, members and webhooks. You are its owner.</DialogDescription>
        </DialogHeader>
        <form onSubmit={form.handleSubmit((values) => create.mutate(values))} className="flex flex-col gap-4" noValidate>
          <FormError message={create.error?.message} />
          <TextField control={form.control} name="name" label="Organization name" autoComplete="organization" />
          <DialogFooter>
            <Button type="submit" disabled={create.isPending}>
              Create organization
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
