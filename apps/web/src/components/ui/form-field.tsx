import { type ComponentProps, useId } from 'react';
import { Input } from './input.tsx';
import { Label } from './label.tsx';

export interface FormFieldProps extends ComponentProps<'input'> {
  label: string;
  /** Shown after the label, muted: '(optional)'. */
  hint?: string;
  error?: string | undefined;
}

/** A labelled input with its error announced and tied to it for screen readers. */
export function FormField({
  label,
  hint,
  error,
  id,
  'aria-describedby': describedBy,
  ...props
}: FormFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  // The error comes first: it is what the person has to act on; a help text of the caller's follows.
  const description = [error ? errorId : undefined, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={inputId}>
        {label}
        {hint ? <span className="ml-1 font-normal text-gray-500">{hint}</span> : null}
      </Label>
      <Input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={description} {...props} />
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
