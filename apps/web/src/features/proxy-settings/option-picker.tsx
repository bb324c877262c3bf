import type { GeoOption } from '@bytegate/contracts/proxy-settings';
import { splitList } from '@bytegate/contracts/proxy-settings';
import { useEffect, useId, useMemo, useState } from 'react';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/cn.ts';

interface OptionPickerProps {
  label: string;
  /** One line under the label: what the choice does. */
  description?: string;
  options: GeoOption[] | undefined;
  isLoading?: boolean;
  /** Shown instead of the list (a failed load, or why there is nothing to choose yet). */
  notice?: string | undefined;
  value: string[];
  onChange: (value: string[]) => void;
  /** How an option reads: its name by default. */
  format?: (option: GeoOption) => string;
  /** How typed text becomes codes (upper-case country codes, lower-case names). */
  normalize?: (code: string) => string;
  disabled?: boolean;
  disabledHint?: string | undefined;
  /** Names the text field's format: 'DE, FR'. */
  placeholder?: string;
  /** A refusal about this choice, shown under it; the text field is marked invalid. */
  error?: string | undefined;
}

/**
 * A choice of several codes from an option list (with a filter box) or as comma-separated text; both
 * edit the same value. Options that are chosen but not offered (typed by hand) stay visible as chips.
 */
export function OptionPicker({
  label,
  description,
  options,
  isLoading,
  notice,
  value,
  onChange,
  format = (option) => option.name,
  normalize = (code) => code,
  disabled,
  disabledHint,
  placeholder,
  error,
}: OptionPickerProps) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const [text, setText] = useState(value.join(', '));
  // The text follows the value when the list changes it (not while the person is typing in it).
  const [isTyping, setIsTyping] = useState(false);
  useEffect(() => {
    if (!isTyping) {
      setText(value.join(', '));
    }
  }, [value, isTyping]);

  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const list = options ?? [];
    return needle
      ? list.filter(
          (option) =>
            option.name.toLowerCase().includes(needle) || option.code.toLowerCase().includes(needle),
        )
      : list;
  }, [options, filter]);
  const chosen = new Set(value);

  const toggle = (code: string, checked: boolean) => {
    onChange(checked ? [...value, code] : value.filter((item) => item !== code));
  };

  return (
    <fieldset className="min-w-0 space-y-2" disabled={disabled} aria-describedby={`${id}-description`}>
      <legend className="text-sm font-medium text-gray-900">{label}</legend>
      <p id={`${id}-description`} className="text-sm text-gray-500">
        {disabled && disabledHint ? <span className="text-amber-700">{disabledHint}</span> : description}
      </p>
      {notice ? (
        <p className="rounded-lg border border-dashed border-gray-300 px-3 py-4 text-center text-sm text-gray-500">
          {notice}
        </p>
      ) : isLoading && !options ? (
        <div className="space-y-2" role="status" aria-label={`Loading ${label.toLowerCase()}`}>
          <Skeleton className="h-9" />
          <Skeleton className="h-24" />
        </div>
      ) : (
        <>
          {(options?.length ?? 0) > 8 ? (
            <Input
              type="search"
              aria-label={`Filter ${label.toLowerCase()}`}
              placeholder="Filter…"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
            />
          ) : null}
          <ul
            className={cn(
              'max-h-48 divide-y divide-gray-100 overflow-y-auto rounded-lg border border-gray-200',
              disabled && 'opacity-60',
            )}
            aria-label={label}
          >
            {shown.length === 0 ? (
              <li className="px-3 py-3 text-sm text-gray-500">
                {filter ? 'Nothing matches the filter' : 'No options in this pool'}
              </li>
            ) : (
              shown.map((option) => {
                const optionId = `${id}-${option.code}`;
                const label = format(option);
                // The code shows beside every name, unless the label already ends with it ('Hetzner
                // (24940)') or is it: 'France' holds the letters 'fr' and still needs its 'FR'.
                const showsCode = label === option.code || label.endsWith(`(${option.code})`);
                return (
                  <li key={option.code} className="flex items-center gap-3 px-3 py-2">
                    <input
                      id={optionId}
                      type="checkbox"
                      className="size-4 rounded border-gray-300 accent-brand-600"
                      checked={chosen.has(option.code)}
                      onChange={(event) => toggle(option.code, event.target.checked)}
                    />
                    <label htmlFor={optionId} className="flex min-w-0 flex-1 justify-between gap-2 text-sm">
                      <span className="truncate text-gray-900">{label}</span>
                      {showsCode ? null : (
                        <span className="shrink-0 font-mono text-xs text-gray-500">{option.code}</span>
                      )}
                    </label>
                  </li>
                );
              })
            )}
          </ul>
        </>
      )}
      <div className="space-y-1">
        <Label htmlFor={`${id}-text`} className="text-xs font-normal text-gray-500">
          Or type them, comma-separated
        </Label>
        <Input
          id={`${id}-text`}
          value={text}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onFocus={() => setIsTyping(true)}
          onBlur={() => setIsTyping(false)}
          onChange={(event) => {
            setText(event.target.value);
            onChange([...new Set(splitList(event.target.value).map(normalize))]);
          }}
        />
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
