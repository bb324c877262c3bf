import type { InboxItem } from '@bytegate/contracts/admin-support';
import { ChevronRightIcon, MessageSquareReplyIcon, StickyNoteIcon } from 'lucide-react';
import { Link } from 'react-router';
import { formatAgo, formatDateTime } from '../format.ts';
import { ContactStatusBadge, Initials, staffName } from './contact-status.tsx';

/**
 * The inbox's messages as a list of rows, each a link to its thread: who wrote, the subject and the
 * start of the message, its status, who owns it, how many replies and notes it has, and when it came.
 * One layout from a phone to a wide screen, as mail clients do; nothing scrolls sideways.
 */
export function InboxList({ messages, backTo }: { messages: InboxItem[]; backTo: string }) {
  return (
    <ul className="divide-y divide-gray-100" aria-label="Messages">
      {messages.map((message) => (
        <li key={message.id}>
          <Link
            to={`/admin/inbox/${message.id}`}
            state={{ backTo }}
            className="group flex items-start gap-3 px-5 py-4 transition-colors hover:bg-gray-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500 sm:px-6"
          >
            <span
              aria-hidden="true"
              className={
                message.status === 'new'
                  ? 'mt-2 size-2 shrink-0 rounded-full bg-brand-500'
                  : 'mt-2 size-2 shrink-0 rounded-full bg-transparent'
              }
            />
            <div className="min-w-0 flex-1 space-y-1">
              <div className="flex items-baseline justify-between gap-3">
                <p className="min-w-0 truncate text-sm">
                  <span
                    className={
                      message.status === 'new' ? 'font-semibold text-gray-900' : 'font-medium text-gray-900'
                    }
                  >
                    {message.name}
                  </span>
                  <span className="text-gray-600"> · {message.email}</span>
                </p>
                <time
                  dateTime={message.createdAt}
                  title={formatDateTime(message.createdAt)}
                  className="shrink-0 text-xs text-gray-600"
                >
                  {formatAgo(message.createdAt)}
                </time>
              </div>
              <p className="truncate text-sm font-medium text-gray-900 group-hover:text-brand-700">
                {message.subject ?? <span className="font-normal text-gray-600 italic">No subject</span>}
              </p>
              <p className="line-clamp-2 text-sm break-words text-gray-600">{message.preview}</p>
              <div className="flex flex-wrap items-center gap-x-4 gap-y-2 pt-1 text-xs text-gray-600">
                <ContactStatusBadge status={message.status} />
                {message.assignee ? (
                  <span className="inline-flex items-center gap-1.5">
                    <Initials member={message.assignee} className="size-5" />
                    <span className="sr-only">Assigned to </span>
                    {staffName(message.assignee)}
                  </span>
                ) : (
                  <span>Unassigned</span>
                )}
                {message.replyCount > 0 ? (
                  <span className="inline-flex items-center gap-1">
                    <MessageSquareReplyIcon className="size-3.5" aria-hidden="true" />
                    {message.replyCount} {message.replyCount === 1 ? 'reply' : 'replies'}
                  </span>
                ) : null}
                {message.noteCount > 0 ? (
                  <span className="inline-flex items-center gap-1">
                    <StickyNoteIcon className="size-3.5" aria-hidden="true" />
                    {message.noteCount} {message.noteCount === 1 ? 'note' : 'notes'}
                  </span>
                ) : null}
              </div>
            </div>
            <ChevronRightIcon
              className="mt-1 hidden size-5 shrink-0 text-gray-400 group-hover:text-gray-600 sm:block"
              aria-hidden="true"
            />
          </Link>
        </li>
      ))}
    </ul>
  );
}
