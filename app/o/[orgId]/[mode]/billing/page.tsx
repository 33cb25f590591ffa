import { BillingScreen } from '@/components/billing/billing-screen';

export const metadata = { title: 'Billing · Roomtone console' };

export default function Page() {
  return <BillingScreen />;
}
