import type { ComponentProps } from 'react';
import { useId } from 'react';
import { FormField } from '../../components/ui/form-field.tsx';

interface TwoFactorCodeFieldProps extends Omit<ComponentProps<'input'>, 'type'> {
  /** A recovery code (letters, `xxxx-xxxx`) rather than the app's six digits. */
  isRecovery: boolean;
  /** Switches between the app's code and a recovery code; the caller clears and focuses the field. */
  onToggle: () => void;
  error?: string | undefined;
  /** The app code's label ('Authentication code', or 'Two-factor code' beside a password). */
  label?: string;
}

/**
 * A two-factor code: the app's six digits (a numeric keyboard, filled in by the phone's one-time-code
 * suggestion), or, after "Use a recovery code instead", one of the saved recovery codes. The hint says
 * which, and is read with the field; the toggle is a real button, so keyboards reach it.
 */
export function TwoFactorCodeField({
  isRecovery,
  onToggle,
  error,
  label = 'Authentication code',
  ...inputProps
}: TwoFactorCodeFieldProps) {
  const hintId = useId();
  return (
    <div className="space-y-1.5">
      <FormField
        label={isRecovery ? 'Recovery code' : label}
        type="text"
        autoComplete="one-time-code"
        inputMode={isRecovery ? 'text' : 'numeric'}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        placeholder={isRecovery ? 'xxxx-xxxx' : '123456'}
        maxLength={isRecovery ? 20 : 10}
        className="font-mono tracking-widest"
        error={error}
        aria-describedby={hintId}
        // Shown because the server asked for a code (the form had not known two-factor was on): the field
        // arrives with its error after the form's own focus on it was tried, so it takes the focus itself.
        autoFocus={error !== undefined}
        {...inputProps}
      />
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p id={hintId} className="text-sm text-gray-500">
          {isRecovery
            ? 'One of the recovery codes you saved. Each works once.'
            : 'The 6-digit code your authenticator app shows for Bytegate.'}
        </p>
        <button
          type="button"
          onClick={onToggle}
          className="rounded text-sm font-medium text-brand-600 hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          {isRecovery ? 'Use your authenticator app instead' : 'Use a recovery code instead'}
        </button>
      </div>
    </div>
  );
}
