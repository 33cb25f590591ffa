import { redirect } from 'next/navigation';

// The invitation page lives at /invitations/<token> (the URL mails carry); this older address leads there.
export default async function Page({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  redirect(`/invitations/${encodeURIComponent(token)}`);
}
