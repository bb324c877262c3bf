import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface HubCertificate {
  cert: string;
  key: string;
  /** SHA-256 of the DER certificate, as agents pin it (`AB:CD:...`). */
  fingerprint: string;
  /** Made now (self-signed, kept in the folder for next time), rather than given or read back. */
  isNew: boolean;
}

const CERT_FILE = 'agent-hub-cert.pem';
const KEY_FILE = 'agent-hub-key.pem';
/** Ten years: agents pin the fingerprint, so a certificate that expired would cut every one of them off. */
const VALID_DAYS = 3_650;

export function fingerprintOf(cert: string): string {
  return new X509Certificate(cert).fingerprint256;
}

/**
 * The hub's certificate: the operator's (both paths given), else the self-signed one kept in `dataDir`
 * (made on first use: EC P-256, the names given, valid ten years). Agents of a self-signed hub pin its
 * fingerprint (`--insecure-pin`); several gateways of a fleet share one by sharing these two files.
 */
export async function loadHubCertificate(options: {
  certPath?: string | undefined;
  keyPath?: string | undefined;
  dataDir: string;
  names?: readonly string[];
}): Promise<HubCertificate> {
  const { certPath, keyPath, dataDir } = options;
  if (certPath || keyPath) {
    if (!certPath || !keyPath) {
      throw new Error('GATEWAY_AGENT_TLS_CERT and GATEWAY_AGENT_TLS_KEY go together: set both, or neither');
    }
    const [cert, key] = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')]);
    return { cert, key, fingerprint: fingerprintOf(cert), isNew: false };
  }
  const certFile = join(dataDir, CERT_FILE);
  const keyFile = join(dataDir, KEY_FILE);
  if (existsSync(certFile) && existsSync(keyFile)) {
    const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
    return { cert, key, fingerprint: fingerprintOf(cert), isNew: false };
  }
  const made = await makeSelfSigned(options.names ?? ['localhost', '127.0.0.1']);
  await mkdir(dataDir, { recursive: true });
  await writeFile(keyFile, made.key, { mode: 0o600 });
  await writeFile(certFile, made.cert);
  return { ...made, isNew: true };
}

/** A self-signed certificate for the hub's names (host names and addresses). */
export async function makeSelfSigned(names: readonly string[]): Promise<HubCertificate> {
  const notAfterDate = new Date(Date.now() + VALID_DAYS * 86_400_000);
  const pems = await generate([{ name: 'commonName', value: names[0] ?? 'bytegate-agent-hub' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: names.map((name) =>
          isIP(name) === 0 ? { type: 2 as const, value: name } : { type: 7 as const, ip: name },
        ),
      },
    ],
  });
  return { cert: pems.cert, key: pems.private, fingerprint: fingerprintOf(pems.cert), isNew: true };
}
