import type { StaffRole } from '@bytegate/contracts/admin';
import type { ExitStatus, ExitsResponse } from '@bytegate/contracts/admin-exits';
import { POOL_NAMES, POOL_TYPES, type PoolType } from '@bytegate/contracts/pools';
import { FilterXIcon, RadarIcon, ServerIcon } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ExitsFilter } from '../../api/admin-exits-client.ts';
import { useExits } from '../../api/use-admin-exits.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { AddExitDialog } from '../../features/admin/exits/add-exit-dialog.tsx';
import { EXIT_STATUS_LABELS } from '../../features/admin/exits/exit-status.tsx';
import { ExitsTable } from '../../features/admin/exits/exits-table.tsx';
import { ImportExitsDialog } from '../../features/admin/exits/import-exits-dialog.tsx';
import { SelectField } from '../../features/admin/exits/select-field.tsx';
import { formatInteger } from '../../features/admin/format.ts';
import { PageHeader } from '../../features/admin/page-header.tsx';
import { EmptyState, ErrorState, LoadingRows } from '../../features/admin/states.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

const STATUSES = Object.keys(EXIT_STATUS_LABELS) as ExitStatus[];

interface Filters {
  pool: string;
  country: string;
  status: string;
  q: string;
}
const FILTER_KEYS = ['pool', 'country', 'status', 'q'] as const;

function readFilters(params: URLSearchParams): Filters {
  return {
    pool: params.get('pool') ?? '',
    country: params.get('country') ?? '',
    status: params.get('status') ?? '',
    q: params.get('q') ?? '',
  };
}

/** The filters as the API takes them: only known values narrow the list. */
function toQuery(filters: Filters, page: number): ExitsFilter {
  return {
    pool: (POOL_TYPES as readonly string[]).includes(filters.pool) ? (filters.pool as PoolType) : undefined,
    country: /^[A-Z]{2}$/.test(filters.country) ? filters.country : undefined,
    status: (STATUSES as string[]).includes(filters.status) ? (filters.status as ExitStatus) : undefined,
    q: filters.q,
    page,
  };
}

/** '12 exits', or with filters '1 exit matches', '3 exits match'. */
function exitsSummary(count: number, isFiltered: boolean): string {
  const exits = `${formatInteger(count)} ${count === 1 ? 'exit' : 'exits'}`;
  return isFiltered ? `${exits} ${count === 1 ? 'matches' : 'match'}` : exits;
}

/** The whole inventory by status: each count filters the list to it. */
function StatusCounts({
  summary,
  current,
  onPick,
}: {
  summary: ExitsResponse['summary'];
  current: string;
  onPick: (status: string) => void;
}) {
  const counts: Array<[string, string, number, string]> = [
    ['', 'All exits', summary.total, 'text-gray-900'],
    ['active', 'In rotation', summary.active, 'text-emerald-700'],
    ['out_of_rotation', 'Out of rotation', summary.outOfRotation, 'text-amber-700'],
    ['disabled', 'Disabled', summary.disabled, 'text-gray-600'],
  ];
  return (
    <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Exits by status">
      {counts.map(([status, label, count, tone]) => (
        <li key={label}>
          <button
            type="button"
            aria-pressed={current === status}
            onClick={() => onPick(status)}
            className={cn(
              'w-full rounded-xl border bg-white px-4 py-3 text-left shadow-xs transition-colors hover:border-brand-300 focus-visible:outline-2 focus-visible:outline-brand-500',
              current === status ? 'border-brand-500 ring-2 ring-brand-500/20' : 'border-gray-200',
            )}
          >
            <span className="block text-sm text-gray-600">{label}</span>
            <span className={cn('block text-2xl font-semibold tabular-nums', tone)}>
              {formatInteger(count)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Exits: the inventory with filters and health; admins add, import and act on exits. */
export function ExitsPage({ staffRole }: { staffRole: StaffRole }) {
  useDocumentTitle('Exits · Console');
  const formId = useId();
  const [params, setParams] = useSearchParams();
  const applied = readFilters(params);
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [draft, setDraft] = useState<Filters>(applied);
  const exits = useExits(toQuery(applied, page));
  const canChange = staffRole === 'admin';
  const isFiltered = FILTER_KEYS.some((key) => applied[key] !== '');

  const appliedKey = FILTER_KEYS.map((key) => applied[key]).join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: appliedKey stands for the filters in force.
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
  const data = exits.data;
  const pagination = data?.pagination;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Exits"
        description={
          canChange
            ? 'The inventory the gateway routes through, with each exit’s health from real traffic and the probe.'
            : 'The inventory the gateway routes through, with each exit’s health. Only admins change it.'
        }
        actions={
          canChange ? (
            <>
              <ImportExitsDialog />
              <AddExitDialog />
            </>
          ) : null
        }
      />
      {data ? (
        <>
          <StatusCounts
            summary={data.summary}
            current={applied.status}
            onPick={(status) => apply({ ...applied, status })}
          />
          <p className="flex items-start gap-2 text-sm text-gray-600">
            <RadarIcon className="mt-0.5 size-4 shrink-0 text-gray-500" aria-hidden="true" />
            {data.probing ? (
              <span>
                Probing every exit every {data.probing.intervalSeconds} s through{' '}
                <span className="font-medium break-all text-gray-800">{data.probing.target}</span>. Three
                failures in a row take an exit out of rotation; a later success puts it back.
              </span>
            ) : (
              <span>Probing is off (EXIT_PROBE_URL is not set): health comes from real traffic only.</span>
            )}
          </p>
        </>
      ) : null}
      <Card aria-labelledby={`${formId}-filters`}>
        <h2 id={`${formId}-filters`} className="sr-only">
          Filters
        </h2>
        <form
          onSubmit={onSubmit}
          className="grid gap-4 p-5 sm:grid-cols-2 sm:px-6 lg:grid-cols-[2fr_1fr_1fr_1fr_auto]"
        >
          <div className="space-y-1.5 sm:col-span-2 lg:col-span-1">
            <Label htmlFor={`${formId}-q`}>Name</Label>
            <Input
              id={`${formId}-q`}
              type="search"
              placeholder="Part of the name"
              autoComplete="off"
              value={draft.q}
              onChange={(event) => setDraft({ ...draft, q: event.target.value })}
            />
          </div>
          <SelectField
            label="Pool"
            value={draft.pool}
            onChange={(event) => setDraft({ ...draft, pool: event.target.value })}
          >
            <option value="">All pools</option>
            {POOL_TYPES.map((pool) => (
              <option key={pool} value={pool}>
                {POOL_NAMES[pool]}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Country"
            value={draft.country}
            onChange={(event) => setDraft({ ...draft, country: event.target.value })}
          >
            <option value="">All countries</option>
            {(data?.summary.countries ?? []).map((country) => (
              <option key={country} value={country}>
                {country}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Status"
            value={draft.status}
            onChange={(event) => setDraft({ ...draft, status: event.target.value })}
          >
            <option value="">Any status</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {EXIT_STATUS_LABELS[status]}
              </option>
            ))}
          </SelectField>
          <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-1">
            <Button type="submit" className="flex-1 lg:flex-none">
              Apply filters
            </Button>
            {isFiltered ? (
              <Button
                type="button"
                variant="ghost"
                onClick={() => apply({ pool: '', country: '', status: '', q: '' })}
                aria-label="Clear filters"
              >
                <FilterXIcon aria-hidden="true" />
                <span className="hidden sm:inline">Clear</span>
              </Button>
            ) : null}
          </div>
        </form>
      </Card>

      <Card aria-labelledby={`${formId}-list`}>
        <CardHeader className="flex flex-row items-center justify-between gap-3">
          <CardTitle id={`${formId}-list`}>Inventory</CardTitle>
          <p className="text-sm text-gray-500" role="status" aria-live="polite">
            {pagination ? exitsSummary(pagination.totalItems, isFiltered) : ''}
          </p>
        </CardHeader>
        {exits.isPending ? (
          <LoadingRows what="exits" rows={5} className="p-5 sm:px-6" />
        ) : exits.isError ? (
          <div className="p-5 sm:px-6">
            <ErrorState
              error={exits.error}
              fallback="The exits could not be loaded. Please try again."
              onRetry={() => void exits.refetch()}
              isRetrying={exits.isFetching}
            />
          </div>
        ) : exits.data.exits.length === 0 ? (
          <EmptyState icon={ServerIcon} title={isFiltered ? 'No exits match these filters' : 'No exits yet'}>
            {isFiltered
              ? 'Try another pool, country or status, or clear the filters.'
              : canChange
                ? 'Add an exit or import a CSV or JSON file to give the gateway a way out.'
                : 'An admin adds exits here or with bytegate exits.'}
          </EmptyState>
        ) : (
          <div
            aria-busy={exits.isFetching || undefined}
            className={cn(exits.isPlaceholderData && 'opacity-60')}
          >
            <ExitsTable exits={exits.data.exits} canChange={canChange} />
          </div>
        )}
        <Pager
          label="Exit pages"
          page={page}
          pagination={pagination}
          onPage={(next) => apply(applied, next)}
        />
      </Card>
    </div>
  );
}
