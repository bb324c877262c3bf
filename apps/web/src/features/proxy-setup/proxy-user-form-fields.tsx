import { useId } from 'react';
import { type UseFormReturn, useWatch } from 'react-hook-form';
import { FormField } from '../../components/ui/form-field.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import type { ProxyUserFormValues } from './proxy-user-form-rules.ts';
import { PERIOD_CHOICES, PERIODS } from './proxy-user-format.ts';

const SELECT_CLASSES =
  'block h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 shadow-xs focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none aria-invalid:border-red-500';

/** The fields a proxy user is created and edited with; the login only when it is created. */
export function ProxyUserFormFields({
  form,
  mode,
  planThreads,
}: {
  form: UseFormReturn<ProxyUserFormValues>;
  mode: 'create' | 'edit';
  planThreads: number;
}) {
  const { errors } = form.formState;
  const capGb = useWatch({ control: form.control, name: 'capGb' });
  const capPeriod = useWatch({ control: form.control, name: 'capPeriod' });
  const ids = {
    loginHint: useId(),
    capHint: useId(),
    period: useId(),
    threadsHint: useId(),
    allowlist: useId(),
  };
  const periodErrorId = `${ids.period}-error`;
  const allowlistErrorId = `${ids.allowlist}-error`;
  const allowlistHintId = `${ids.allowlist}-hint`;
  const hasCap = capGb.trim() !== '';
  const planLimit = planThreads.toLocaleString('en-US');

  return (
    <>
      <FormField
        label="Label"
        hint="(optional)"
        placeholder="e.g. Customer Acme, Scraper EU"
        autoComplete="off"
        maxLength={64}
        error={errors.label?.message}
        {...form.register('label')}
      />
      {mode === 'create' ? (
        <div className="space-y-1.5">
          <FormField
            label="Login"
            hint="(optional)"
            placeholder="Generated if empty"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            className="font-mono"
            aria-describedby={ids.loginHint}
            error={errors.login?.message}
            {...form.register('login')}
          />
          <p id={ids.loginHint} className="text-sm text-gray-500">
            8 to 32 lowercase letters and digits, not starting with “bg”. The password is always generated.
          </p>
        </div>
      ) : null}
      <fieldset className="space-y-1.5">
        <legend className="sr-only">Traffic cap</legend>
        <div className="grid gap-x-3 gap-y-4 sm:grid-cols-[minmax(0,1fr)_11rem]">
          <FormField
            label="Traffic cap"
            hint="(GB)"
            placeholder="No cap"
            inputMode="decimal"
            autoComplete="off"
            aria-describedby={ids.capHint}
            error={errors.capGb?.message}
            {...form.register('capGb')}
          />
          <div className="space-y-1.5">
            <Label htmlFor={ids.period}>Cap period</Label>
            <select
              id={ids.period}
              aria-invalid={errors.capPeriod ? true : undefined}
              aria-describedby={errors.capPeriod ? `${periodErrorId} ${ids.capHint}` : ids.capHint}
              className={SELECT_CLASSES}
              {...form.register('capPeriod')}
            >
              {PERIOD_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
            {errors.capPeriod?.message ? (
              <p id={periodErrorId} role="alert" className="text-sm text-red-600">
                {errors.capPeriod.message}
              </p>
            ) : null}
          </div>
        </div>
        <p id={ids.capHint} className="text-sm text-gray-500">
          {hasCap
            ? PERIODS[capPeriod].hint
            : 'Empty: no cap, the user may use all of the plan’s traffic. Its traffic always counts in the plan’s.'}
        </p>
      </fieldset>
      <div className="space-y-1.5">
        <FormField
          label="Threads"
          hint="(optional)"
          placeholder={`Plan’s ${planLimit}`}
          inputMode="numeric"
          autoComplete="off"
          aria-describedby={ids.threadsHint}
          error={errors.threads?.message}
          {...form.register('threads')}
        />
        <p id={ids.threadsHint} className="text-sm text-gray-500">
          Connections at once, up to the plan’s {planLimit}. Empty: the plan’s limit, shared.
        </p>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={ids.allowlist}>
          IP allowlist<span className="ml-1 font-normal text-gray-500">(optional)</span>
        </Label>
        <Textarea
          id={ids.allowlist}
          rows={2}
          spellCheck={false}
          autoComplete="off"
          placeholder="203.0.113.7"
          className="min-h-0 resize-y font-mono"
          aria-invalid={errors.allowlist ? true : undefined}
          aria-describedby={errors.allowlist ? `${allowlistErrorId} ${allowlistHintId}` : allowlistHintId}
          {...form.register('allowlist')}
        />
        {errors.allowlist?.message ? (
          <p id={allowlistErrorId} role="alert" className="text-sm text-red-600">
            {errors.allowlist.message}
          </p>
        ) : null}
        <p id={allowlistHintId} className="text-sm text-gray-500">
          Public addresses, one a line: connections from them need no password and count as this user.
        </p>
      </div>
    </>
  );
}
