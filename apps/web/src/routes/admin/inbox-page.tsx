import {
  CONTACT_STATUSES,
  type ContactStatus,
  INBOX_ASSIGNEE_FILTERS,
  type InboxAssigneeFilter,
} from '@bytegate/contracts/admin-support';
import { InboxIcon, SearchIcon, SearchXIcon, XIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { InboxFilter } from '../../api/admin-support-client.ts';
import { useInbox } from '../../api/use-admin-support.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { PageHeader } from '../../features/admin/page-header.tsx';
import { EmptyState, ErrorState, LoadingRows } from '../../features/admin/states.tsx';
import { CONTACT_STATUS_LABELS } from '../../features/admin/support/contact-status.tsx';
import { InboxList } from '../../features/admin/support/inbox-list.tsx';
import { InboxStatusTabs } from '../../features/admin/support/inbox-status-tabs.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** How long typing pauses before the search runs. */
const SEARCH_DEBOUNCE_MS = 300;

const ASSIGNEE_LABELS: Record<InboxAssigneeFilter, string> = {
  anyone: 'Anyone',
  me: 'Assigned to me',
  unassigned: 'Unassigned',
};

/** The filters as the address holds them; anything unknown there counts as no filter. */
function readFilter(params: URLSearchParams): InboxFilter {
  const status = params.get('status');
  const assignee = params.get('assignee');
  return {
    status: CONTACT_STATUSES.includes(status as ContactStatus) ? (status as ContactStatus) : null,
    assignee: INBOX_ASSIGNEE_FILTERS.includes(assignee as InboxAssigneeFilter)
      ? (assignee as InboxAssigneeFilter)
      : 'anyone',
    q: params.get('q')?.trim() ?? '',
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
}

/** The inbox's address for a filter, leaving out what does not narrow it. */
function inboxHref(filter: InboxFilter): string {
  const params = new URLSearchParams();
  if (filter.status) {
    params.set('status', filter.status);
  }
  if (filter.assignee !== 'anyone') {
    params.set('assignee', filter.assignee);
  }
  if (filter.q) {
    params.set('q', filter.q);
  }
  if (filter.page > 1) {
    params.set('page', String(filter.page));
  }
  const search = params.toString();
  return `/admin/inbox${search ? `?${search}` : ''}`;
}

/**
 * The support inbox: messages from the contact form, newest first, by status (with counts), whose and
 * a search text; every filter is in the address, so back, reload and a shared link return to it.
 */
export function InboxPage() {
  useDocumentTitle('Inbox · Console');
  const [params, setParams] = useSearchParams();
  const filter = readFilter(params);
  const inbox = useInbox(filter);
  const [text, setText] = useState(filter.q);
  const id = useId();
  const go = (next: InboxFilter) => setParams(new URLSearchParams(inboxHref(next).split('?')[1] ?? ''));

  // The address changed (back, a link): the box shows what is searched.
  useEffect(() => {
    setText((current) => (current.trim() === filter.q ? current : filter.q));
  }, [filter.q]);

  // Typing searches once it pauses, from the first page.
  useEffect(() => {
    const next = text.trim();
    if (next === filter.q) {
      return;
    }
    const timer = setTimeout(() => {
      const search = new URLSearchParams(params);
      search.delete('page');
      if (next) {
        search.set('q', next);
      } else {
        search.delete('q');
      }
      setParams(search, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, filter.q, params, setParams]);

  const isFiltered = filter.status !== null || filter.assignee !== 'anyone' || filter.q !== '';
  const pagination = inbox.data?.pagination;
  const total = pagination?.totalItems;
  const summary =
    total === undefined
      ? ''
      : `${total} ${total === 1 ? 'message' : 'messages'}${isFiltered ? (total === 1 ? ' matches' : ' match') : ''}`;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Inbox"
        description="Messages sent through the contact form. Replies go to the sender by email; notes stay with staff."
      />

      <div className="space-y-4">
        <InboxStatusTabs
          current={filter.status}
          counts={inbox.data?.counts}
          hrefOf={(status) => inboxHref({ ...filter, status, page: 1 })}
        />
        <search className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_14rem]">
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-q`}>Search messages</Label>
            <div className="relative">
              <SearchIcon
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-gray-400"
                aria-hidden="true"
              />
              <Input
                id={`${id}-q`}
                type="search"
                value={text}
                onChange={(event) => setText(event.target.value)}
                placeholder="Name, email, subject or message"
                autoComplete="off"
                spellCheck={false}
                className="pr-10 pl-9 [&::-webkit-search-cancel-button]:hidden"
              />
              <div className="absolute top-1/2 right-1.5 flex -translate-y-1/2 items-center">
                {inbox.isFetching ? (
                  <Spinner className="mr-1.5 text-brand-600" />
                ) : text ? (
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    className="size-7"
                    aria-label="Clear search"
                    onClick={() => setText('')}
                  >
                    <XIcon />
                  </Button>
                ) : null}
              </div>
            </div>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-assignee`}>Assignee</Label>
            <select
              id={`${id}-assignee`}
              value={filter.assignee}
              onChange={(event) =>
                go({ ...filter, assignee: event.target.value as InboxAssigneeFilter, page: 1 })
              }
              className="block h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 shadow-xs focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
            >
              {INBOX_ASSIGNEE_FILTERS.map((assignee) => (
                <option key={assignee} value={assignee}>
                  {ASSIGNEE_LABELS[assignee]}
                </option>
              ))}
            </select>
          </div>
        </search>
      </div>

      <Card aria-labelledby={`${id}-list`}>
        <div className="flex items-center justify-between gap-3 border-b border-gray-100 px-5 py-3 sm:px-6">
          <h2 id={`${id}-list`} className="text-base font-semibold text-gray-900">
            {filter.status ? CONTACT_STATUS_LABELS[filter.status] : 'All messages'}
          </h2>
          <p className="text-sm text-gray-600" role="status" aria-live="polite">
            {summary}
          </p>
        </div>
        {inbox.isPending ? (
          <LoadingRows what="messages" rows={5} className="p-5 sm:px-6" />
        ) : inbox.isError ? (
          <div className="p-5 sm:px-6">
            <ErrorState
              error={inbox.error}
              fallback="The inbox could not be loaded. Please try again."
              onRetry={() => void inbox.refetch()}
              isRetrying={inbox.isFetching}
            />
          </div>
        ) : inbox.data.messages.length === 0 ? (
          isFiltered ? (
            <EmptyState icon={SearchXIcon} title="No messages match these filters">
              Try another status or assignee, or a shorter search: it matches part of a name, email, subject
              or message.
            </EmptyState>
          ) : (
            <EmptyState icon={InboxIcon} title="The inbox is empty">
              Messages sent through the contact page appear here.
            </EmptyState>
          )
        ) : (
          <div
            aria-busy={inbox.isFetching || undefined}
            className={cn(inbox.isPlaceholderData && 'opacity-60')}
          >
            <InboxList messages={inbox.data.messages} backTo={inboxHref(filter)} />
          </div>
        )}
        <Pager
          label="Inbox pages"
          page={filter.page}
          pagination={pagination}
          onPage={(next) => go({ ...filter, page: next })}
        />
      </Card>
    </div>
  );
}
