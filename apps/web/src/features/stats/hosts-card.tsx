import { SearchIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useStatsHosts } from '../../api/use-stats.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { ErrorState, LoadingRows } from '../admin/states.tsx';
import { formatBytes, formatCount } from './stats-view.ts';

/** Target hosts of the view, most bytes first, with a search; 50 at a time. */
export function HostsCard({ query }: { query: URLSearchParams | null }) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const searchId = useId();
  // Asked once typing pauses, not at every key.
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim().toLowerCase()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const hosts = useStatsHosts(query, search);
  const rows = hosts.data?.pages.flatMap((page) => page.hosts) ?? [];
  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <CardTitle>Target hosts</CardTitle>
          <CardDescription>Where the traffic went, by UTC day, the most bytes first.</CardDescription>
        </div>
        <div className="relative w-full sm:w-64">
          <label htmlFor={searchId} className="sr-only">
            Search hosts
          </label>
          <SearchIcon
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-gray-400"
            aria-hidden="true"
          />
          <Input
            id={searchId}
            type="search"
            placeholder="Search hosts"
            className="pl-9"
            maxLength={253}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
      </CardHeader>
      <CardContent className="px-0 pb-0 sm:px-0">
        {hosts.isPending ? (
          <LoadingRows what="hosts" rows={4} className="px-5 pb-5" />
        ) : hosts.isError ? (
          <div className="px-5 pb-5">
            <ErrorState
              error={hosts.error}
              fallback="Failed to load the target hosts."
              onRetry={() => void hosts.refetch()}
              isRetrying={hosts.isFetching}
            />
          </div>
        ) : rows.length === 0 ? (
          <p className="px-5 pb-5 text-sm text-gray-600">
            {search
              ? `No host matches “${search}” in this period.`
              : 'No traffic to any host in this period.'}
          </p>
        ) : (
          <>
            <table className="w-full table-fixed text-sm">
              <caption className="sr-only">Target hosts, most bytes first</caption>
              <thead className="border-y border-gray-200 bg-gray-50 text-left text-xs font-semibold text-gray-600">
                <tr>
                  <th scope="col" className="w-[40%] px-4 py-2 sm:w-[46%] sm:px-5">
                    Host
                  </th>
                  <th scope="col" className="px-2 py-2 text-right">
                    Bytes
                  </th>
                  <th scope="col" className="px-2 py-2 text-right">
                    Requests
                  </th>
                  <th scope="col" className="px-4 py-2 text-right sm:px-5">
                    Errors
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100">
                {rows.map((row) => (
                  <tr key={row.host}>
                    <th
                      scope="row"
                      className="truncate px-4 py-2.5 text-left font-mono text-xs font-normal text-gray-900 sm:px-5"
                      title={row.host}
                    >
                      {row.host}
                    </th>
                    <td className="px-2 py-2.5 text-right tabular-nums">{formatBytes(row.bytes)}</td>
                    <td className="px-2 py-2.5 text-right tabular-nums">{formatCount(row.requests)}</td>
                    <td className="px-4 py-2.5 text-right tabular-nums sm:px-5">{formatCount(row.errors)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {hosts.hasNextPage ? (
              <div className="flex justify-center border-t border-gray-100 py-3">
                <Button
                  type="button"
                  variant="secondary"
                  size="sm"
                  isLoading={hosts.isFetchingNextPage}
                  onClick={() => void hosts.fetchNextPage()}
                >
                  Show more hosts
                </Button>
              </div>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
