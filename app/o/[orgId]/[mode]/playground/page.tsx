import { Suspense } from 'react';
import { PlaygroundScreen } from '@/components/playground/playground-screen';

export const metadata = { title: 'Playground · Roomtone console' };

export default function Page() {
  return (
    <Suspense>
      <PlaygroundScreen />
    </Suspense>
  );
}
