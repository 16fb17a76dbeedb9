import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';

/**
 * A self-signed certificate for localhost and 127.0.0.1 (an EC P-256 key, valid for two days),
 * written as PEM files into `dir`: what TLS_CERT_FILE and TLS_KEY_FILE name for the tests and the
 * first-contact benchmark. Browsers are told to accept it (playwright's ignoreHTTPSErrors, or
 * Chromium's --ignore-certificate-errors for Lighthouse); Node clients with rejectUnauthorized: false.
 */
export async function writeSelfSignedCert(dir: string): Promise<{ certFile: string; keyFile: string; cert: string }> {
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + 2 * 86_400_000),
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
  });
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  writeFileSync(certFile, pems.cert);
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  return { certFile, keyFile, cert: pems.cert };
}
