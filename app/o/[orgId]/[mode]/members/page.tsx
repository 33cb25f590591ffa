import { MembersScreen } from '@/components/members/members-screen';

export const metadata = { title: 'Members · Roomtone console' };

export default function Page() {
  return <MembersScreen />;
}
