import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Exit } from '@bytegate/gateway';

// What the tests that run the Help Center's examples share: exits in the places the articles target,
// and a certificate for localhost that clients are told to trust, so TLS is verified as in production.

/** Residential exits bound to 127.0.0.2-8, so the address a request arrives from names its exit. */
export const helpExits: Exit[] = [
  { id: 'us-austin', localAddress: '127.0.0.2', country: 'US', state: 'texas', city: 'austin', asn: 7922 },
  { id: 'us-dallas', localAddress: '127.0.0.3', country: 'US', state: 'texas', city: 'dallas', asn: 7018 },
  { id: 'us-nyc', localAddress: '127.0.0.4', country: 'US', state: 'new_york', city: 'new_york', asn: 701 },
  { id: 'de-berlin', localAddress: '127.0.0.5', country: 'DE', state: 'berlin', city: 'berlin', asn: 3320 },
  {
    id: 'de-hamburg',
    localAddress: '127.0.0.6',
    country: 'DE',
    state: 'hamburg',
    city: 'hamburg',
    asn: 8881,
  },
  { id: 'ru-moscow', localAddress: '127.0.0.7', country: 'RU', state: 'moscow', city: 'moscow', asn: 8359 },
  { id: 'by-minsk', localAddress: '127.0.0.8', country: 'BY', state: 'minsk', city: 'minsk', asn: 6697 },
].map((fields) => ({ kind: 'direct', poolType: 'residential', isRisky: false, ...fields }) as Exit);

/** The exit a request left from, by the address the origin saw (a printed line, so trimmed). */
export function exitAt(address: string): Exit | undefined {
  return helpExits.find((exit) => exit.kind === 'direct' && exit.localAddress === address.trim());
}

/** Path of the localhost test certificate (`localhost.crt`) or its key, for a client to trust. */
export const tlsPath = (file: 'localhost.crt' | 'localhost.key') =>
  fileURLToPath(new URL(`./tls/${file}`, import.meta.url));

/** Options for an HTTPS server on localhost with the test certificate. */
export const tlsServerOptions = () => ({
  key: readFileSync(tlsPath('localhost.key')),
  cert: readFileSync(tlsPath('localhost.crt')),
});
