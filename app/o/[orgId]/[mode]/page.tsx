import { redirect } from 'next/navigation';

export default async function ModeHome({ params }: { params: Promise<{ orgId: string; mode: string }> }) {
  const { orgId, mode } = await params;
  redirect(`/o/${orgId}/${mode}/overview`);
}
