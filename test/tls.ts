/**
 * A throwaway CA and a leaf certificate for localhost, 127.0.0.1 and ::1 (EC keys: fast), for
 * HTTPS servers on loopback in tests. The service under test trusts the CA (NODE_EXTRA_CA_CERTS
 * or the client's `ca` option).
 */
import { generate } from 'selfsigned';

export interface TestCertificates {
  caPem: string;
  key: string;
  cert: string;
}

export async function makeTestCertificates(caName = 'Roomtone Test CA'): Promise<TestCertificates> {
  const ca = await generate([{ name: 'commonName', value: caName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { caPem: ca.cert, key: leaf.private, cert: leaf.cert };
}
