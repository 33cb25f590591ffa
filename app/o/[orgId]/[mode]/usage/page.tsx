import { UsageScreen } from '@/components/usage/usage-screen';

export const metadata = { title: 'Usage · Roomtone console' };

export default function Page() {
  return <UsageScreen />;
}
