import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the receiver took it: headers and the raw body, byte for byte. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: Date;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The statuses to answer, in order; the last repeats (default 200). */
  answerWith(statuses: number[], body?: string): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 standing for a customer's endpoint: it keeps what it is sent. */
export async function startWebhookReceiver(path = '/hooks/bytegate'): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let statuses = [200];
  let answerBody = '{"ok":true}';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: new Date(),
      });
      const status = statuses.length > 1 ? (statuses.shift() as number) : (statuses[0] ?? 200);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(answerBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answerWith(next, body) {
      statuses = [...next];
      if (body !== undefined) {
        answerBody = body;
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
