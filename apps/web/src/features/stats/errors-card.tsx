import type { StatsErrorsResponse } from '@bytegate/contracts/stats';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { formatCount } from './stats-view.ts';

/** The view's refusals and failures by code: how many, what each means, and what to do. */
export function ErrorsCard({ errors }: { errors: StatsErrorsResponse | undefined }) {
  const rows = errors?.errors ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Errors</CardTitle>
        <CardDescription>
          What each code means and what to do.{' '}
          <a href="/help/troubleshooting" className="font-medium text-brand-600 hover:underline">
            Troubleshooting guide
          </a>
        </CardDescription>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="text-sm text-gray-600">No refused or failed requests in this period.</p>
        ) : (
          <ul aria-label="Errors by code" className="divide-y divide-gray-100">
            {rows.map((row) => (
              <li key={row.code} className="grid gap-1 py-3 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-4">
                <div className="flex flex-wrap items-center gap-2">
                  <code className="font-mono text-sm font-medium text-gray-900">{row.code}</code>
                  <span className="text-sm text-gray-700 tabular-nums">× {formatCount(row.count)}</span>
                  {row.isPolicyRefusal ? <Badge>Refused by policy</Badge> : null}
                </div>
                <div className="text-sm">
                  <p className="text-gray-900">{row.meaning}</p>
                  <p className="text-gray-600">{row.action}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
