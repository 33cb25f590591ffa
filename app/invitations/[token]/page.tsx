// The link in invitation e-mails (members/invite-member.ts); /invite/<token> redirects here.
import { InvitationScreen } from '@/components/auth/invitation-screen';

export const metadata = { title: 'Invitation · Roomtone console' };

export default async function Page({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <InvitationScreen token={token} />;
}
