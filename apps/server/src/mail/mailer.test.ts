import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DomainError } from '../services/domain-error.ts';
import { createMailer, type MailMessage } from './mailer.ts';
import { contactReply, threadRequestDecision } from './templates.ts';
import { createRecordingLog } from './testing/recording-log.ts';
import { type SmtpSink, startSmtpSink } from './testing/smtp-sink.ts';

// The SMTP transport against a real SMTP server (smtp-server) on 127.0.0.1: what arrives is what a
// customer's mail server would get.

let sink: SmtpSink | null = null;
afterEach(async () => {
  await sink?.close();
  sink = null;
});

function mailerFor(smtpUrl: string, env: Record<string, string> = {}) {
  const log = createRecordingLog();
  const config = loadConfig({ SMTP_URL: smtpUrl, PUBLIC_URL: 'https://bytegate.example', ...env });
  return { mailer: createMailer(config, log), log };
}

const hostileReply: MailMessage = {
  to: 'Ann Lee <ann@example.com>',
  ...contactReply({
    name: 'Ann <script>alert(1)</script>',
    subject: 'Refund & "invoice"',
    originalMessage: 'Where is my <b>invoice</b>?\nThanks',
    reply: 'It is under Billing > Invoices.\n\nRegards & thanks',
  }),
};

describe('createMailer with SMTP_URL', () => {
  it('delivers a template through an SMTP server without authentication', async () => {
    sink = await startSmtpSink();
    const { mailer, log } = mailerFor(`smtp://127.0.0.1:${sink.port}`);
    expect(mailer.transport).toBe('smtp');

    const sent = await mailer.send(hostileReply);

    expect(sent).toMatchObject({
      transport: 'smtp',
      outboxId: null,
      accepted: ['ann@example.com'],
      rejected: [],
    });
    expect(sent.messageId).toMatch(/^<.+@.+>$/);
    expect(sink.received).toHaveLength(1);
    const [mail] = sink.received;
    expect(mail?.mailFrom).toBe('no-reply@bytegate.example');
    expect(mail?.rcptTo).toEqual(['ann@example.com']);
    expect(mail?.user).toBeUndefined();
    const parsed = mail?.parsed;
    expect(parsed?.from?.value).toEqual([{ name: 'Bytegate', address: 'no-reply@bytegate.example' }]);
    expect(parsed?.to).toMatchObject({ value: [{ name: 'Ann Lee', address: 'ann@example.com' }] });
    expect(parsed?.subject).toBe('Re: Refund & "invoice"');
    expect(parsed?.messageId).toBe(sent.messageId);
    expect(parsed?.date).toBeInstanceOf(Date);
    // Both parts arrive, the text as written and the HTML with every value escaped.
    expect(parsed?.text).toContain('Hello Ann <script>alert(1)</script>,');
    expect(parsed?.text).toContain('> Where is my <b>invoice</b>?');
    expect(parsed?.html).toContain('Hello Ann &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(parsed?.html).toContain('Where is my &lt;b&gt;invoice&lt;/b&gt;?');
    expect(parsed?.html).toContain('<p>Regards &amp; thanks</p>');
    expect(parsed?.html).not.toContain('<script>');
    expect(parsed?.html).not.toContain('<b>');
    expect(mail?.source).toMatch(/^Content-Type: multipart\/alternative/m);
    expect(log.lines.map((line) => line.args[1])).toEqual(['mail sent']);
  });

  it('signs in with the user and password of SMTP_URL, percent-decoded', async () => {
    sink = await startSmtpSink({ auth: { user: 'mailer@bytegate.example', pass: 'p@ss:w/rd' } });
    const { mailer } = mailerFor(
      `smtp://${encodeURIComponent('mailer@bytegate.example')}:${encodeURIComponent('p@ss:w/rd')}@127.0.0.1:${sink.port}`,
      { MAIL_FROM: 'Bytegate Support <support@bytegate.example>' },
    );

    await mailer.send({
      to: ['ann@example.com', 'bob@example.com'],
      replyTo: 'support@bytegate.example',
      ...threadRequestDecision({
        name: 'Ann',
        planLabel: 'Residential <EU>',
        approved: true,
        threadLimit: 200,
        message: 'Enjoy.',
      }),
    });

    const [mail] = sink.received;
    expect(mail?.user).toBe('mailer@bytegate.example');
    expect(mail?.mailFrom).toBe('support@bytegate.example');
    expect(mail?.rcptTo).toEqual(['ann@example.com', 'bob@example.com']);
    expect(mail?.parsed.from?.value).toEqual([
      { name: 'Bytegate Support', address: 'support@bytegate.example' },
    ]);
    expect(mail?.parsed.replyTo?.text).toBe('support@bytegate.example');
    expect(mail?.parsed.subject).toBe('Thread limit raised: Residential <EU>');
    expect(mail?.parsed.text).toContain('to 200 concurrent connections');
    expect(mail?.parsed.html).toContain('<strong>Residential &lt;EU&gt;</strong>');
  });

  it('refuses with a clear error and logs it, without the password, when the sign-in fails', async () => {
    sink = await startSmtpSink({ auth: { user: 'mailer', pass: 'right' } });
    const { mailer, log } = mailerFor(`smtp://mailer:wrong-secret@127.0.0.1:${sink.port}`);

    const failure = mailer.send(hostileReply);

    await expect(failure).rejects.toBeInstanceOf(DomainError);
    await expect(failure).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message:
        'The message was not sent: the mail server refused the sign-in (check the user and password in SMTP_URL).',
    });
    expect(sink.received).toEqual([]);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatchObject({
      level: 'error',
      args: [{ mail: { transport: 'smtp', server: `127.0.0.1:${sink.port}` } }, 'mail not sent'],
    });
    expect(inspect(log.lines, { depth: 8, showHidden: true })).not.toContain('wrong-secret');
  });

  it('refuses with a clear error when the server refuses the recipient', async () => {
    sink = await startSmtpSink({ refuseRecipient: 'gone@example.com' });
    const { mailer } = mailerFor(`smtp://127.0.0.1:${sink.port}`);

    await expect(mailer.send({ ...hostileReply, to: 'gone@example.com' })).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'The message was not sent: the mail server refused the sender or the recipient.',
    });
    // One refused recipient among others: the rest get it, and the answer says who did not.
    const sent = await mailer.send({ ...hostileReply, to: ['gone@example.com', 'ann@example.com'] });
    expect(sent).toMatchObject({ accepted: ['ann@example.com'], rejected: ['gone@example.com'] });
    expect(sink.received.map((mail) => mail.rcptTo)).toEqual([['ann@example.com']]);
  });

  it('refuses with a clear error when no server answers, and keeps running', async () => {
    const port = await closedPort();
    const { mailer } = mailerFor(`smtp://127.0.0.1:${port}`);

    await expect(mailer.send(hostileReply)).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'The message was not sent: the mail server could not be reached.',
    });
    // The mailer is still usable once a server is there.
    sink = await startSmtpSink();
    const { mailer: next } = mailerFor(`smtp://127.0.0.1:${sink.port}`);
    await next.send(hostileReply);
    expect(sink.received).toHaveLength(1);
  });
});

/** A port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}
