import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as a real SMTP server took it: the envelope, who signed in, the source and its parse. */
export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  /** The signed-in user, or undefined without authentication. */
  user: string | undefined;
  source: string;
  parsed: ParsedMail;
}

export interface SmtpSink {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 that keeps what it is sent, for tests. Plain SMTP (no
 * STARTTLS); with `auth` it requires that user and password, and `refuseRecipient` refuses one address.
 */
export async function startSmtpSink(
  options: { auth?: { user: string; pass: string }; refuseRecipient?: string } = {},
): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !options.auth,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.auth?.user && auth.password === options.auth?.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onRcptTo(address, _session, callback) {
      if (address.address === options.refuseRecipient) {
        const error = new Error('No such user here') as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      } else {
        callback();
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const source = Buffer.concat(chunks).toString('utf8');
        simpleParser(source).then(
          (parsed) => {
            received.push({
              mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              user: typeof session.user === 'string' ? session.user : undefined,
              source,
              parsed,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
