import { KeysScreen } from '@/components/keys/keys-screen';

export const metadata = { title: 'API keys · Roomtone console' };

export default function Page() {
  return <KeysScreen />;
}
