import { LogsScreen } from '@/components/logs/logs-screen';

export const metadata = { title: 'Request log · Roomtone console' };

export default function Page() {
  return <LogsScreen />;
}
