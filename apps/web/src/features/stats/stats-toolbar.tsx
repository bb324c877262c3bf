import { POOL_NAMES, POOL_TYPES, type PoolType } from '@bytegate/contracts/pools';
import type { StatsCredential } from '@bytegate/contracts/stats';
import { DownloadIcon } from 'lucide-react';
import { useId } from 'react';
import { Label } from '../../components/ui/label.tsx';
import { SegmentedControl } from '../../components/ui/segmented-control.tsx';
import { defaultResolution, PERIOD_CHOICES, type StatsView } from './stats-view.ts';

const SELECT_CLASSES =
  'block h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 shadow-xs focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none';
const DATE_CLASSES = SELECT_CLASSES;

/** The view's controls: period (or dates), resolution, pool, credential, and the CSV downloads. */
export function StatsToolbar({
  view,
  onChange,
  credentials,
  exports,
  rangeError,
}: {
  view: StatsView;
  onChange: (view: StatsView) => void;
  credentials: StatsCredential[];
  /** The CSV downloads of the view, or null while its range is not valid. */
  exports: Array<{ label: string; href: string }> | null;
  rangeError: string | null;
}) {
  const ids = { from: useId(), to: useId(), pool: useId(), credential: useId(), error: useId() };
  const shown = credentials.filter((credential) => view.pool === 'all' || credential.pool === view.pool);
  const byPool = POOL_TYPES.map((pool) => ({
    pool,
    items: shown.filter((credential) => credential.pool === pool),
  })).filter((group) => group.items.length > 0);
  return (
    <div className="space-y-4 rounded-xl border border-gray-200 bg-white p-4 shadow-xs sm:p-5">
      <div className="flex flex-wrap items-end gap-4">
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-gray-800" aria-hidden="true">
            Period
          </p>
          <SegmentedControl
            label="Period"
            value={view.period}
            onValueChange={(period) =>
              onChange({
                ...view,
                period,
                resolution: period === 'custom' ? view.resolution : defaultResolution(period),
              })
            }
            options={PERIOD_CHOICES}
          />
        </div>
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-gray-800" aria-hidden="true">
            Resolution
          </p>
          <SegmentedControl
            label="Resolution"
            value={view.resolution}
            onValueChange={(resolution) => onChange({ ...view, resolution })}
            options={[
              { value: 'hour', label: 'Hourly' },
              { value: 'day', label: 'Daily' },
            ]}
          />
        </div>
      </div>
      {view.period === 'custom' ? (
        <div className="flex flex-wrap items-start gap-4">
          <div className="w-44 space-y-1.5">
            <Label htmlFor={ids.from}>From (UTC)</Label>
            <input
              id={ids.from}
              type="date"
              className={DATE_CLASSES}
              value={view.customFrom}
              aria-describedby={rangeError ? ids.error : undefined}
              aria-invalid={rangeError ? true : undefined}
              onChange={(event) => onChange({ ...view, customFrom: event.target.value })}
            />
          </div>
          <div className="w-44 space-y-1.5">
            <Label htmlFor={ids.to}>To (UTC, included)</Label>
            <input
              id={ids.to}
              type="date"
              className={DATE_CLASSES}
              value={view.customTo}
              aria-describedby={rangeError ? ids.error : undefined}
              aria-invalid={rangeError ? true : undefined}
              onChange={(event) => onChange({ ...view, customTo: event.target.value })}
            />
          </div>
          {rangeError ? (
            <p id={ids.error} role="alert" className="basis-full text-sm text-red-600">
              {rangeError}
            </p>
          ) : null}
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[12rem_minmax(0,20rem)_1fr] lg:items-end">
        <div className="space-y-1.5">
          <Label htmlFor={ids.pool}>Pool</Label>
          <select
            id={ids.pool}
            className={SELECT_CLASSES}
            value={view.pool}
            onChange={(event) => {
              const pool = event.target.value as PoolType | 'all';
              const credential = credentials.find((candidate) => candidate.id === view.credential);
              // A credential of another pool no longer applies.
              onChange({
                ...view,
                pool,
                credential:
                  credential && pool !== 'all' && credential.pool !== pool ? 'all' : view.credential,
              });
            }}
          >
            <option value="all">All pools</option>
            {POOL_TYPES.map((pool) => (
              <option key={pool} value={pool}>
                {POOL_NAMES[pool]}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0 space-y-1.5">
          <Label htmlFor={ids.credential}>Credential</Label>
          <select
            id={ids.credential}
            className={SELECT_CLASSES}
            value={view.credential}
            onChange={(event) => onChange({ ...view, credential: event.target.value })}
          >
            <option value="all">All credentials</option>
            {byPool.map((group) => (
              <optgroup key={group.pool} label={POOL_NAMES[group.pool]}>
                {group.items.map((credential) => (
                  <option key={credential.id} value={credential.id}>
                    {credential.kind === 'plan'
                      ? `Plan login (${credential.login})`
                      : `${credential.label} (${credential.login})`}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        {exports ? (
          <div className="flex flex-wrap items-center gap-2 lg:justify-end">
            <span className="text-sm text-gray-600">Export CSV:</span>
            {exports.map((item) => (
              <a
                key={item.label}
                href={item.href}
                download
                className="inline-flex h-8 items-center gap-1.5 rounded-lg border border-gray-300 bg-white px-3 text-sm font-medium text-gray-900 shadow-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
              >
                <DownloadIcon className="size-4" aria-hidden="true" />
                {item.label}
              </a>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}
