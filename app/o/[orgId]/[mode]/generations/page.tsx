import { GenerationsScreen } from '@/components/generations/generations-screen';

export const metadata = { title: 'Generations · Roomtone console' };

export default function Page() {
  return <GenerationsScreen />;
}
