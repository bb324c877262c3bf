import { REASON_MAX_LENGTH } from '@bytegate/contracts/admin';
import { type ComponentProps, useId } from 'react';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';

interface ReasonFieldProps extends ComponentProps<'textarea'> {
  error?: string | undefined;
  /** What has been typed, for the count of characters left. */
  length: number;
}

/** The reason every staff action asks for: kept in the audit log with who, what, before and after. */
export function ReasonField({ error, length, ...props }: ReasonFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>Reason</Label>
      <Textarea
        id={id}
        rows={3}
        className="min-h-20"
        maxLength={REASON_MAX_LENGTH}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? errorId : undefined, hintId].filter(Boolean).join(' ')}
        {...props}
      />
      <div className="flex justify-between gap-3 text-xs">
        <p id={hintId} className="text-gray-500">
          Recorded in the audit log with your name.
        </p>
        <span className="shrink-0 text-gray-500 tabular-nums" aria-hidden="true">
          {length}/{REASON_MAX_LENGTH}
        </span>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
