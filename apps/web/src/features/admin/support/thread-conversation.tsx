import type { ContactEntry, ContactThreadResponse } from '@bytegate/contracts/admin-support';
import { MailIcon, MessageSquareReplyIcon, StickyNoteIcon } from 'lucide-react';
import { cn } from '../../../lib/cn.ts';
import { formatAgo, formatDateTime } from '../format.ts';

/**
 * A thread as it happened, oldest first: the customer's message, then each reply mailed to them and
 * each internal note. Notes look unlike replies (amber, "Internal note") so nobody mistakes one for
 * what the customer saw.
 */
export function ThreadConversation({ thread }: { thread: ContactThreadResponse }) {
  const { message, entries } = thread;
  return (
    <ol className="space-y-4" aria-label="Conversation">
      <li>
        <article
          aria-labelledby="thread-original-title"
          className="rounded-xl border border-gray-200 bg-white shadow-xs"
        >
          <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 border-b border-gray-100 px-5 py-3 sm:px-6">
            <h2 id="thread-original-title" className="flex min-w-0 items-center gap-2 text-sm">
              <MailIcon className="size-4 shrink-0 text-gray-500" aria-hidden="true" />
              <span className="min-w-0 truncate">
                <span className="font-semibold text-gray-900">{message.name}</span>
                <span className="text-gray-600"> wrote</span>
              </span>
            </h2>
            <Time iso={message.createdAt} />
          </header>
          <p className="px-5 py-4 text-sm leading-relaxed break-words whitespace-pre-wrap text-gray-900 sm:px-6">
            {message.message}
          </p>
        </article>
      </li>
      {entries.map((entry) => (
        <li key={entry.id}>
          <EntryCard entry={entry} to={message.email} />
        </li>
      ))}
    </ol>
  );
}

function EntryCard({ entry, to }: { entry: ContactEntry; to: string }) {
  const isNote = entry.kind === 'note';
  const titleId = `thread-entry-${entry.id}`;
  const Icon = isNote ? StickyNoteIcon : MessageSquareReplyIcon;
  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        'rounded-xl border shadow-xs',
        isNote ? 'border-amber-200 bg-amber-50' : 'border-brand-200 bg-white sm:ml-8',
      )}
    >
      <header
        className={cn(
          'flex flex-wrap items-start justify-between gap-x-4 gap-y-1 border-b px-5 py-3 sm:px-6',
          isNote ? 'border-amber-200/70' : 'border-brand-100',
        )}
      >
        <h3 id={titleId} className="flex min-w-0 items-center gap-2 text-sm">
          <Icon
            className={cn('size-4 shrink-0', isNote ? 'text-amber-700' : 'text-brand-600')}
            aria-hidden="true"
          />
          <span className="min-w-0 wrap-anywhere">
            <span className={cn('font-semibold', isNote ? 'text-amber-900' : 'text-brand-800')}>
              {isNote ? 'Internal note' : 'Reply'}
            </span>
            <span className="text-gray-700"> by {entry.authorEmail}</span>
          </span>
        </h3>
        <Time iso={entry.createdAt} />
      </header>
      <p className="px-5 py-4 text-sm leading-relaxed break-words whitespace-pre-wrap text-gray-900 sm:px-6">
        {entry.body}
      </p>
      <footer
        className={cn(
          'border-t px-5 py-2 text-xs sm:px-6',
          isNote ? 'border-amber-200/70 text-amber-900' : 'border-brand-100 text-gray-600',
        )}
      >
        {isNote ? (
          'Only staff see this note.'
        ) : (
          <span className="wrap-anywhere">
            Emailed to {to}
            {entry.mailMessageId ? (
              <>
                {' · '}
                <span className="font-mono" title="The Message-ID of the mail">
                  {entry.mailMessageId}
                </span>
              </>
            ) : null}
          </span>
        )}
      </footer>
    </article>
  );
}

function Time({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatAgo(iso)} className="shrink-0 text-xs text-gray-600">
      {formatDateTime(iso)}
    </time>
  );
}
