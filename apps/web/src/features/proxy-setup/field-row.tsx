import type { ReactNode } from 'react';
import { CopyButton } from '../../components/ui/copy-button.tsx';

/** One labelled value with its copy button, as Proxy Access lists them. */
export function FieldRow({
  label,
  value,
  display,
  extra,
}: {
  label: string;
  /** What is copied. */
  value: string;
  /** What is shown, when it differs from what is copied (a masked password). */
  display?: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <div className="flex items-center gap-3 py-3">
      <dt className="w-28 shrink-0 text-sm text-gray-500">{label}</dt>
      <dd className="min-w-0 flex-1 truncate font-mono text-sm text-gray-900">{display ?? value}</dd>
      <dd className="flex shrink-0 gap-1.5">
        {extra}
        <CopyButton text={value} what={label.toLowerCase()} variant="ghost" />
      </dd>
    </div>
  );
}
