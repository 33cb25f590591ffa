import { PageLoading } from '@/components/shell/page-loading';

// Shown at once when a console link is followed, while the next screen renders on the server.
export default function Loading() {
  return <PageLoading />;
}
