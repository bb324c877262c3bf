import { CUSTOMER_SEARCH_LIMIT } from '@bytegate/contracts/admin';
import { SearchIcon, SearchXIcon, UsersIcon, XIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useCustomerSearch } from '../../api/use-admin.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { CustomerResults } from '../../features/admin/customer-results.tsx';
import { PageHeader } from '../../features/admin/page-header.tsx';
import { EmptyState, ErrorState, LoadingRows } from '../../features/admin/states.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** How long typing pauses before the search runs. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * Customers: one search box for email, name, proxy login, IP, order number or invoice id. The search is
 * in the address (?q=), so the back button and a shared link return to it; with none, the newest customers.
 */
export function CustomersPage() {
  useDocumentTitle('Customers · Console');
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const [text, setText] = useState(q);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const search = useCustomerSearch(q);

  // The address changed (back, forward, a link): the box shows what is searched.
  useEffect(() => {
    setText((current) => (current.trim() === q ? current : q));
  }, [q]);

  // Typing searches once it pauses.
  useEffect(() => {
    const next = text.trim();
    if (next === q) {
      return;
    }
    const timer = setTimeout(() => setParams(next ? { q: next } : {}, { replace: true }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, q, setParams]);

  // '/' focuses the search from anywhere on the page, as in most back offices.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const isTyping = target?.closest('input, textarea, select, [contenteditable="true"]');
      if (event.key === '/' && !isTyping && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        inputRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const customers = search.data?.customers ?? [];
  const isSearch = q !== '';
  const summary = search.data
    ? isSearch
      ? `${customers.length === 1 ? '1 customer matches' : `${customers.length} customers match`} “${q}”`
      : 'Newest customers'
    : '';

  return (
    <div className="space-y-6">
      <PageHeader
        title="Customers"
        description="Find a customer by email, name, proxy login, IP address, order number or invoice id."
      />
      <search>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const next = text.trim();
            setParams(next ? { q: next } : {}, { replace: next === q });
          }}
        >
          <label htmlFor={inputId} className="sr-only">
            Search customers
          </label>
          <div className="relative">
            <SearchIcon
              className="pointer-events-none absolute top-1/2 left-3.5 size-5 -translate-y-1/2 text-gray-400"
              aria-hidden="true"
            />
            <Input
              ref={inputRef}
              id={inputId}
              type="search"
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder="Email, name, proxy login, IP, order or invoice"
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${inputId}-hint`}
              className="h-12 pr-24 pl-11 text-base [&::-webkit-search-cancel-button]:hidden"
            />
            <div className="absolute top-1/2 right-3 flex -translate-y-1/2 items-center gap-2">
              {search.isFetching ? <Spinner className="text-brand-600" /> : null}
              {text ? (
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="size-8"
                  aria-label="Clear search"
                  onClick={() => {
                    setText('');
                    setParams({}, { replace: true });
                    inputRef.current?.focus();
                  }}
                >
                  <XIcon />
                </Button>
              ) : (
                <kbd className="hidden rounded border border-gray-300 bg-gray-50 px-1.5 font-mono text-xs text-gray-500 sm:inline">
                  /
                </kbd>
              )}
            </div>
          </div>
          <p id={`${inputId}-hint`} className="sr-only">
            Results update as you type. Press slash to come back to this box.
          </p>
        </form>
      </search>

      <Card aria-labelledby="customer-results-title">
        <CardHeader className="flex flex-row items-center justify-between gap-3">
          <CardTitle id="customer-results-title">{isSearch ? 'Results' : 'Newest customers'}</CardTitle>
          <p className="text-sm text-gray-500" role="status" aria-live="polite">
            {summary}
          </p>
        </CardHeader>
        {search.isPending ? (
          <LoadingRows what="customers" className="p-5 sm:px-6" />
        ) : search.isError ? (
          <div className="p-5 sm:px-6">
            <ErrorState
              error={search.error}
              fallback="Customers could not be loaded. Please try again."
              onRetry={() => void search.refetch()}
              isRetrying={search.isFetching}
            />
          </div>
        ) : customers.length === 0 ? (
          isSearch ? (
            <EmptyState icon={SearchXIcon} title={`No customers match “${q}”`}>
              Emails and names match in part; a proxy login, an IP address, an order number (BG-…) or an
              invoice id must be whole.
            </EmptyState>
          ) : (
            <EmptyState icon={UsersIcon} title="No customers yet">
              Customers appear here as they sign up.
            </EmptyState>
          )
        ) : (
          <>
            <CustomerResults
              customers={customers}
              isSearch={isSearch}
              backTo={isSearch ? `/admin?q=${encodeURIComponent(q)}` : '/admin'}
            />
            {customers.length >= CUSTOMER_SEARCH_LIMIT ? (
              <p className="border-t border-gray-100 px-5 py-3 text-sm text-gray-500 sm:px-6">
                Showing the first {CUSTOMER_SEARCH_LIMIT}. Narrow the search to find someone else.
              </p>
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}
