import { OUTBOX_REDACTED_SECRET, type OutboxMessageResponse } from '@bytegate/contracts/admin-support';
import { LockKeyholeIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { formatDateTime, formatInteger } from '../format.ts';

/**
 * One message of the outbox as its recipient would get it: the headers, then the HTML or the plain
 * text. The HTML is the sender's markup, so it is shown in a frame sandboxed with no permissions at
 * all: no scripts, no forms, no same origin; the page's Content-Security-Policy also keeps it from
 * loading anything from elsewhere (tracking pixels included). One-time links (password reset, email
 * verification, change of email) are the addressee's alone: the server sends them redacted, and this
 * says so, and why.
 */
export function OutboxMessageView({ message }: { message: OutboxMessageResponse }) {
  const hasHtml = message.html !== null;
  return (
    <article aria-labelledby="outbox-message-subject" className="min-w-0">
      <header className="space-y-3 border-b border-gray-100 px-5 py-4 sm:px-6">
        <h2 id="outbox-message-subject" className="text-lg font-semibold break-words text-gray-900">
          {message.subject || 'No subject'}
        </h2>
        <dl className="grid gap-x-4 gap-y-1.5 text-sm sm:grid-cols-[5.5rem_minmax(0,1fr)]">
          <Header label="From">{message.from}</Header>
          <Header label="To">{message.to}</Header>
          {message.replyTo ? <Header label="Reply-To">{message.replyTo}</Header> : null}
          <Header label="Date">
            <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
          </Header>
          <Header label="Size">{formatInteger(message.sizeBytes)} bytes</Header>
          <Header label="File">
            <code className="font-mono text-xs">DATA_DIR/outbox/{message.id}.eml</code>
          </Header>
          <Header label="Audit">Opening a message is written to the audit log.</Header>
        </dl>
      </header>
      {message.redaction === 'redacted' ? (
        <div className="px-5 pt-5 sm:px-6">
          <Alert tone="info" className="flex gap-3">
            <LockKeyholeIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              <strong className="font-semibold">One-time link redacted.</strong> This message carries a link
              that signs in or proves an address (a password reset, an email verification or a change of
              email). Whoever holds it could take over the account, so the console shows it to no one, admins
              included, as “{OUTBOX_REDACTED_SECRET}”. Only the addressee reads it, in their mail: here, the
              .eml file on the server.
            </span>
          </Alert>
        </div>
      ) : null}
      {message.redaction === 'withheld' ? (
        <div className="p-5 sm:px-6">
          <Alert tone="warning">
            This message was written before the outbox marked one-time links, so it may hold a link only its
            addressee may read: its body is not shown here. Open the .eml file on the server to read it.
          </Alert>
        </div>
      ) : message.isTruncated ? (
        <div className="p-5 sm:px-6">
          <Alert tone="warning">
            This message is larger than 1 MiB, so only its headers are shown here. Open the .eml file in a
            mail client to read it.
          </Alert>
        </div>
      ) : (
        <Tabs defaultValue={hasHtml ? 'html' : 'text'} className="p-5 sm:px-6">
          <TabsList aria-label="How to show the message">
            <TabsTrigger value="html" disabled={!hasHtml}>
              HTML
            </TabsTrigger>
            <TabsTrigger value="text" disabled={message.text === null}>
              Plain text
            </TabsTrigger>
          </TabsList>
          <TabsContent value="html">
            <iframe
              title={`HTML of the message: ${message.subject || 'No subject'}`}
              sandbox=""
              srcDoc={message.html ?? ''}
              referrerPolicy="no-referrer"
              className="h-[32rem] w-full rounded-lg border border-gray-200 bg-white"
            />
          </TabsContent>
          <TabsContent value="text">
            <pre className="rounded-lg border border-gray-200 bg-gray-50 p-4 font-mono text-sm break-words whitespace-pre-wrap text-gray-900">
              {message.text}
            </pre>
          </TabsContent>
        </Tabs>
      )}
    </article>
  );
}

function Header({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-gray-600">{label}</dt>
      <dd className="min-w-0 wrap-anywhere text-gray-900">{children}</dd>
    </>
  );
}
