import { WebhooksScreen } from '@/components/webhooks/webhooks-screen';

export const metadata = { title: 'Webhooks · Roomtone console' };

export default function Page() {
  return <WebhooksScreen />;
}
