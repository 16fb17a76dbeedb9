import { verify, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/**
 * Myriota signs every message its HTTP destination sends: `Signature` is RSA PKCS#1 v1.5 over
 * SHA-256 of `EndpointRef`, `Timestamp`, `Id` and `Data` joined by newlines, made with the key of
 * the X.509 certificate at `CertificateUrl`. A message is taken only when that certificate is
 * Myriota's (served from https://security.myriota.com, issued to CN security.myriota.com,
 * O Myriota Pty Ltd), was valid at the message's `Timestamp`, and the signature verifies. This
 * proves the message came from Myriota's cloud; the organisation's callback secret says whose it is.
 */

export const MYRIOTA_CERTIFICATE_HOST = 'security.myriota.com';
const ORGANISATION = 'Myriota Pty Ltd';
/** A certificate larger than this is not one. */
const MAX_CERTIFICATE_BYTES = 64 * 1024;
const FETCH_TIMEOUT_MS = 5_000;

export interface SignedMyriotaMessage {
  EndpointRef?: string;
  Timestamp?: number;
  Id?: string;
  Data: string;
  CertificateUrl?: unknown;
  Signature?: unknown;
}

/** Reads the PEM of a certificate URL already checked to be Myriota's. */
export type CertificateSource = (url: URL) => Promise<string>;

/** The text fields of a certificate's subject, by name. */
const subjectOf = (cert: X509Certificate) => Object.fromEntries(cert.subject.split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));

/** Why the message's signature does not verify, or undefined when it does. */
export async function myriotaSignatureProblem(message: SignedMyriotaMessage, certificate: CertificateSource): Promise<string | undefined> {
  const { EndpointRef, Timestamp, Id, Data, CertificateUrl, Signature } = message;
  if (typeof Signature !== 'string' || typeof CertificateUrl !== 'string') return 'Signature and CertificateUrl are required.';
  if (typeof EndpointRef !== 'string' || typeof Timestamp !== 'number' || typeof Id !== 'string') return 'EndpointRef, Timestamp and Id are required to check the signature.';
  let url: URL;
  try {
    url = new URL(CertificateUrl);
  } catch {
    return 'CertificateUrl is not a URL.';
  }
  if (url.protocol !== 'https:' || url.host !== MYRIOTA_CERTIFICATE_HOST) return `CertificateUrl must be on https://${MYRIOTA_CERTIFICATE_HOST}/.`;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(await certificate(url));
  } catch (err) {
    return `The certificate could not be read: ${(err as Error).message}`;
  }
  const subject = subjectOf(cert);
  if (subject.CN !== MYRIOTA_CERTIFICATE_HOST || subject.O !== ORGANISATION) return "The certificate is not Myriota's.";
  const at = new Date(Timestamp * 1000);
  if (at < cert.validFromDate || at > cert.validToDate) return `The certificate was not valid at ${at.toISOString()}.`;
  const signed = Buffer.from([EndpointRef, String(Timestamp), Id, Data].join('\n'), 'utf8');
  if (!verify('sha256', signed, cert.publicKey, Buffer.from(Signature, 'base64'))) return 'The signature does not match the message.';
  return undefined;
}

/**
 * Where certificates come from: the files of a directory, named as the URL's last path segment
 * (a deployment without a route to Myriota pins them), else fetched from Myriota with a timeout and
 * a size limit. Either way each is read once and kept; a failure is not kept, so it is tried again.
 */
export function certificateSource(dir: string | undefined, fetchFn: typeof fetch = fetch): CertificateSource {
  const cache = new Map<string, Promise<string>>();
  const load = async (url: URL): Promise<string> => {
    if (dir) return readFile(join(dir, basename(url.pathname)), 'utf8');
    const res = await fetchFn(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    const text = await res.text();
    if (text.length > MAX_CERTIFICATE_BYTES) throw new Error(`${url} is larger than a certificate`);
    return text;
  };
  return (url) => {
    const key = url.toString();
    let pem = cache.get(key);
    if (!pem) {
      pem = load(url);
      cache.set(key, pem);
      pem.catch(() => cache.delete(key));
    }
    return pem;
  };
}
