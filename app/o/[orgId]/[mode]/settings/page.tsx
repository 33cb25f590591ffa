import { SettingsScreen } from '@/components/settings/settings-screen';

export const metadata = { title: 'Settings · Roomtone console' };

export default function Page() {
  return <SettingsScreen />;
}
