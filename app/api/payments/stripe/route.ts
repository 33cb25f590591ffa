export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from '@/server/http/routes';
