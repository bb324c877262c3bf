import { connect } from 'node:net';

/**
 * One request through a proxy on 127.0.0.1, byte by byte as a client sends it, keeping what a library
 * would hide: the CONNECT answer's status and headers, or the SOCKS5 auth status and reply code.
 */

export interface ProxyDial {
  /** The HTTP status; for SOCKS5, 'auth' for an RFC 1929 failure, else the CONNECT reply (0 → 200). */
  status: number | 'auth';
  /** The CONNECT answer's headers, names lower-case (none over SOCKS5). */
  headers: Record<string, string>;
  /** The target's response body, when the tunnel opened. */
  body: string | undefined;
}

/** Writes `first`, then `request` once `isOpen` says the tunnel is; answers every byte until the close. */
function converse(
  port: number,
  first: Buffer,
  request: string,
  isOpen: (got: Buffer) => boolean,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    let asked = false;
    const timer = setTimeout(() => socket.destroy(new Error('no answer within 5 s')), 5000);
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (!asked && isOpen(got)) {
        asked = true;
        socket.write(request);
      }
    });
    socket.once('error', reject);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
    socket.write(first);
  });
}

/** The body of an HTTP/1.1 response read to its close (the request asks for `Connection: close`). */
const bodyOf = (response: Buffer) => {
  const end = response.indexOf('\r\n\r\n');
  return end === -1 ? undefined : response.subarray(end + 4).toString('utf8');
};

/** A GET of `/` on 127.0.0.1:targetPort, asking the target to close when it has answered. */
const get = (targetPort: number) =>
  `GET / HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\nConnection: close\r\n\r\n`;

export async function dialHttpProxy(
  proxyPort: number,
  credentials: { username: string; password: string },
  targetPort: number,
): Promise<ProxyDial> {
  const authority = `127.0.0.1:${targetPort}`;
  const basic = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');
  const got = await converse(
    proxyPort,
    Buffer.from(
      `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\nProxy-Authorization: Basic ${basic}\r\n\r\n`,
    ),
    get(targetPort),
    (bytes) => bytes.includes('\r\n\r\n') && /^HTTP\/1\.1 2/.test(bytes.toString('latin1')),
  );
  const end = got.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = got.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const status = Number(statusLine.split(' ')[1]);
  return { status, headers, body: status === 200 ? bodyOf(got.subarray(end + 4)) : undefined };
}

export async function dialSocks5Proxy(
  proxyPort: number,
  credentials: { username: string; password: string },
  targetPort: number,
): Promise<ProxyDial> {
  const connectRequest = Buffer.from([5, 1, 0, 1, 127, 0, 0, 1, 0, 0]);
  connectRequest.writeUInt16BE(targetPort, 8);
  // Greeting (username/password only), RFC 1929 sub-negotiation and CONNECT, pipelined.
  const got = await converse(
    proxyPort,
    Buffer.concat([
      Buffer.from([5, 1, 2, 1, Buffer.byteLength(credentials.username)]),
      Buffer.from(credentials.username),
      Buffer.from([Buffer.byteLength(credentials.password)]),
      Buffer.from(credentials.password),
      connectRequest,
    ]),
    get(targetPort),
    (bytes) => bytes.length >= 14 && bytes[3] === 0 && bytes[5] === 0,
  );
  if (got[1] !== 2 || got[3] !== 0) {
    return { status: 'auth', headers: {}, body: undefined };
  }
  const reply = got[5] ?? -1;
  return {
    status: reply === 0 ? 200 : reply,
    headers: {},
    body: reply === 0 ? bodyOf(got.subarray(14)) : undefined,
  };
}
