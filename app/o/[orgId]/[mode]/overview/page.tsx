import { OverviewScreen } from '@/components/overview/overview-screen';

export const metadata = { title: 'Overview · Roomtone console' };

export default function Page() {
  return <OverviewScreen />;
}
