import { HomeRedirect } from '@/components/auth/home-redirect';

export default function Home() {
  return <HomeRedirect />;
}
