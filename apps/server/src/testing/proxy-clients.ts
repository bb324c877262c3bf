import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';

// Proxy clients for tests of running gateways: a CONNECT that reports its status, a forward GET that
// reports what its socket carried, and a download through a tunnel.

/** A CONNECT through `port`; answers the status line's code and the socket (open on a 200). */
export function openTunnel(
  port: number,
  auth: string,
  target: string,
): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.write(
      `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: Basic ${Buffer.from(auth).toString('base64')}\r\n\r\n`,
    );
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (head.includes('\r\n\r\n')) {
        socket.off('data', onData);
        resolve({ status: Number(head.split(' ')[1]), socket });
      }
    };
    socket.on('data', onData);
  });
}

/** A forward GET through `port`; answers the status, the body, and the bytes the client socket carried. */
export function forwardGet(
  port: number,
  auth: string,
  url: string,
): Promise<{ status: number; body: Buffer; carried: number }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      path: url,
      agent: false,
      headers: {
        'proxy-authorization': `Basic ${Buffer.from(auth).toString('base64')}`,
        connection: 'close',
      },
    });
    request.once('error', reject);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      const done = () => {
        const socket = request.socket;
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks),
          carried: (socket?.bytesRead ?? 0) + (socket?.bytesWritten ?? 0),
        });
      };
      response.once('end', () => setImmediate(done));
      response.once('error', () => setImmediate(done));
      response.once('aborted', () => setImmediate(done));
    });
    request.end();
  });
}

/**
 * Downloads `bytes` through a CONNECT tunnel; answers its status and what the client socket carried that
 * the gateway bills: both ways once the tunnel is open, nothing when it was refused (a plan that ran out
 * while downloads started refuses the late ones, and a refusal for traffic bills neither head).
 */
export function tunnelDownload(
  port: number,
  auth: string,
  originPort: number,
  bytes: number,
): Promise<{ billable: number; status: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.write(
      `CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\nProxy-Authorization: Basic ${Buffer.from(auth).toString('base64')}\r\n\r\n`,
    );
    let status = 0;
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      if (status === 0) {
        head += chunk.toString('latin1');
        if (head.includes('\r\n\r\n')) {
          status = Number(head.split(' ')[1]);
          if (status === 200) {
            socket.write(`GET /?bytes=${bytes} HTTP/1.1\r\nHost: origin\r\nConnection: close\r\n\r\n`);
          } else {
            socket.end();
          }
        }
      }
    });
    socket.resume();
    socket.once('close', () =>
      resolve({
        status,
        billable: status === 200 ? socket.bytesRead + socket.bytesWritten : 0,
      }),
    );
  });
}
