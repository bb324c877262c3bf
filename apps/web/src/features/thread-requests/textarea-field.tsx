import { type ComponentProps, type ReactNode, useId } from 'react';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';

interface TextareaFieldProps extends ComponentProps<'textarea'> {
  label: string;
  /** Shown after the label, muted: '(optional)'. */
  labelHint?: string;
  /** Below the field: what to write. */
  hint?: ReactNode;
  error?: string | undefined;
  /** What has been typed, for the count against `maxLength`. */
  length: number;
  maxLength: number;
}

/** A labelled multi-line field with a help text, a character count, and its error tied to it. */
export function TextareaField({
  label,
  labelHint,
  hint,
  error,
  length,
  maxLength,
  id,
  ...props
}: TextareaFieldProps) {
  const generatedId = useId();
  const fieldId = id ?? generatedId;
  const hintId = `${fieldId}-hint`;
  const errorId = `${fieldId}-error`;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={fieldId}>
        {label}
        {labelHint ? <span className="ml-1 font-normal text-gray-500">{labelHint}</span> : null}
      </Label>
      <Textarea
        id={fieldId}
        rows={4}
        className="min-h-24"
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={
          [error ? errorId : undefined, hint ? hintId : undefined].filter(Boolean).join(' ') || undefined
        }
        {...props}
      />
      <div className="flex justify-between gap-3 text-xs">
        <p id={hintId} className="text-gray-500">
          {hint}
        </p>
        <span className="shrink-0 text-gray-500 tabular-nums" aria-hidden="true">
          {length.toLocaleString('en-US')}/{maxLength.toLocaleString('en-US')}
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
