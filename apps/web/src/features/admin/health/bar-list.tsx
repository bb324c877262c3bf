import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn.ts';

export interface BarListItem {
  key: string;
  label: ReactNode;
  /** The number the bar's length stands for. */
  value: number;
  /** How the value reads ('3.20 GB', '42'). */
  display: string;
  /** A second line under the label. */
  hint?: ReactNode;
}

/**
 * A ranked list with a bar behind each value, longest first: a small chart that is still a list to a
 * screen reader (each row reads its label and its value; the bar is decoration).
 */
export function BarList({
  items,
  label,
  barClassName = 'bg-brand-100',
}: {
  items: BarListItem[];
  label: string;
  barClassName?: string;
}) {
  const max = Math.max(1, ...items.map((item) => item.value));
  return (
    <ul className="space-y-1.5" aria-label={label}>
      {items.map((item) => (
        <li key={item.key} className="relative overflow-hidden rounded-md">
          <span
            aria-hidden="true"
            className={cn('absolute inset-y-0 left-0 rounded-md', barClassName)}
            style={{ width: `${Math.max(2, (item.value / max) * 100)}%` }}
          />
          <span className="relative flex items-center justify-between gap-3 px-3 py-2 text-sm">
            <span className="min-w-0">
              <span className="block truncate text-gray-900">{item.label}</span>
              {item.hint ? <span className="block truncate text-xs text-gray-600">{item.hint}</span> : null}
            </span>
            <span className="shrink-0 font-medium text-gray-900 tabular-nums">{item.display}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
