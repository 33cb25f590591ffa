/**
 * A build used once and thrown away (CI=true: .ci/run builds a clean clone and never rebuilds it)
 * writes no Turbopack cache for a next build to reuse, and no server source maps (nothing applies
 * them: the server runs without --enable-source-maps). Together they were about a third of the
 * build's CPU. Elsewhere both stay: a rebuild after a change (npm start, the test harness) reads
 * the cache.
 */
const throwawayBuild = process.env.CI === 'true';

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Type checking is its own step (`npm run typecheck`, in CI before the build): not twice.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  experimental: { turbopackFileSystemCacheForBuild: !throwawayBuild, turbopackSourceMaps: !throwawayBuild },
  reactStrictMode: true,
  typedRoutes: false,
};

export default nextConfig;
