import { AUDIT_ACTIONS } from '@bytegate/contracts/admin';
import { FilterXIcon, ScrollTextIcon } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAudit } from '../../api/use-admin.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { AUDIT_ACTION_LABELS } from '../../features/admin/audit-labels.ts';
import { AuditList } from '../../features/admin/audit-list.tsx';
import { formatInteger } from '../../features/admin/format.ts';
import { PageHeader } from '../../features/admin/page-header.tsx';
import { EmptyState, ErrorState, LoadingRows } from '../../features/admin/states.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

interface Filters {
  actor: string;
  action: string;
  targetId: string;
}

const FILTER_KEYS = ['actor', 'action', 'targetId'] as const;

function readFilters(params: URLSearchParams): Filters {
  return {
    actor: params.get('actor') ?? '',
    action: params.get('action') ?? '',
    targetId: params.get('targetId') ?? '',
  };
}

/** '12 entries', or with filters '1 entry matches', '3 entries match'. */
function entriesSummary(count: number, isFiltered: boolean): string {
  const entries = `${formatInteger(count)} ${count === 1 ? 'entry' : 'entries'}`;
  if (!isFiltered) {
    return entries;
  }
  return `${entries} ${count === 1 ? 'matches' : 'match'}`;
}

/** The audit log: every staff action, newest first, filtered by actor, action and target (in the address). */
export function AuditPage() {
  useDocumentTitle('Audit log · Console');
  const [params, setParams] = useSearchParams();
  const applied = readFilters(params);
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [draft, setDraft] = useState<Filters>(applied);
  const audit = useAudit({ ...applied, page });
  const formId = useId();
  const isFiltered = FILTER_KEYS.some((key) => applied[key] !== '');

  // The address changed (back, a link from a customer's page): the form shows the filters in force.
  const appliedKey = `${applied.actor}\n${applied.action}\n${applied.targetId}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: appliedKey stands for the three filters.
  useEffect(() => {
    setDraft(readFilters(params));
  }, [appliedKey]);

  const apply = (filters: Filters, nextPage = 1) => {
    const next = new URLSearchParams();
    for (const key of FILTER_KEYS) {
      const value = filters[key].trim();
      if (value) {
        next.set(key, value);
      }
    }
    if (nextPage > 1) {
      next.set('page', String(nextPage));
    }
    setParams(next);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };
  const pagination = audit.data?.pagination;
  const field = (key: keyof Filters) => ({
    id: `${formId}-${key}`,
    value: draft[key],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value }),
  });

  return (
    <div className="space-y-6">
      <PageHeader
        title="Audit log"
        description="Every staff action with who, when, what changed and why. Filters match exactly."
      />
      <Card aria-labelledby={`${formId}-title`}>
        <h2 id={`${formId}-title`} className="sr-only">
          Filters
        </h2>
        <form
          onSubmit={onSubmit}
          className="grid gap-4 p-5 sm:grid-cols-2 sm:px-6 lg:grid-cols-[1fr_1fr_1fr_auto]"
        >
          <div className="space-y-1.5">
            <Label htmlFor={`${formId}-actor`}>Actor email</Label>
            <Input type="email" placeholder="support@bytegate.io" autoComplete="off" {...field('actor')} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${formId}-action`}>Action</Label>
            <select
              {...field('action')}
              className="block h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 shadow-xs focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
            >
              <option value="">All actions</option>
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {AUDIT_ACTION_LABELS[action]}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${formId}-targetId`}>Target id</Label>
            <Input
              placeholder="Customer or plan id"
              autoComplete="off"
              spellCheck={false}
              {...field('targetId')}
            />
          </div>
          <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-1">
            <Button type="submit" className="flex-1 lg:flex-none">
              Apply filters
            </Button>
            {isFiltered ? (
              <Button
                type="button"
                variant="ghost"
                onClick={() => apply({ actor: '', action: '', targetId: '' })}
                aria-label="Clear filters"
              >
                <FilterXIcon aria-hidden="true" />
                <span className="hidden sm:inline">Clear</span>
              </Button>
            ) : null}
          </div>
        </form>
      </Card>

      <Card aria-labelledby={`${formId}-entries`}>
        <CardHeader className="flex flex-row items-center justify-between gap-3">
          <CardTitle id={`${formId}-entries`}>Entries</CardTitle>
          <p className="text-sm text-gray-500" role="status" aria-live="polite">
            {pagination ? entriesSummary(pagination.totalItems, isFiltered) : ''}
          </p>
        </CardHeader>
        {audit.isPending ? (
          <LoadingRows what="audit log" rows={6} className="p-5 sm:px-6" />
        ) : audit.isError ? (
          <div className="p-5 sm:px-6">
            <ErrorState
              error={audit.error}
              fallback="The audit log could not be loaded. Please try again."
              onRetry={() => void audit.refetch()}
              isRetrying={audit.isFetching}
            />
          </div>
        ) : audit.data.entries.length === 0 ? (
          <EmptyState
            icon={ScrollTextIcon}
            title={isFiltered ? 'No entries match these filters' : 'No staff actions yet'}
          >
            {isFiltered
              ? 'Filters match exactly: a whole email, one action, a whole id.'
              : 'Balance adjustments, thread limit changes, disabled accounts and revoked sessions appear here.'}
          </EmptyState>
        ) : (
          <div
            aria-busy={audit.isFetching || undefined}
            className={cn(audit.isPlaceholderData && 'opacity-60')}
          >
            <AuditList entries={audit.data.entries} label="Audit entries" />
          </div>
        )}
        <Pager
          label="Audit log pages"
          page={page}
          pagination={pagination}
          onPage={(next) => apply(applied, next)}
        />
      </Card>
    </div>
  );
}
