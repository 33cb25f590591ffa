import { EndpointScreen } from '@/components/webhooks/endpoint-screen';

export const metadata = { title: 'Webhook endpoint · Roomtone console' };

export default async function Page({ params }: { params: Promise<{ endpointId: string }> }) {
  const { endpointId } = await params;
  return <EndpointScreen endpointId={endpointId} />;
}
