import { RadioGroup } from 'radix-ui';
import { cn } from '../../lib/cn.ts';

interface SegmentedControlProps<T extends string> {
  /** Names the choice for screen readers: 'Protocol'. */
  label: string;
  value: T;
  onValueChange: (value: T) => void;
  options: ReadonlyArray<{ value: T; label: string; disabled?: boolean; title?: string }>;
  className?: string;
}

/** A small one-of-n choice drawn as joined buttons; a radio group to keyboards and screen readers. */
export function SegmentedControl<T extends string>({
  label,
  value,
  onValueChange,
  options,
  className,
}: SegmentedControlProps<T>) {
  return (
    <RadioGroup.Root
      aria-label={label}
      value={value}
      onValueChange={(next) => onValueChange(next as T)}
      orientation="horizontal"
      className={cn('inline-flex rounded-lg bg-gray-100 p-1', className)}
    >
      {options.map((option) => (
        <RadioGroup.Item
          key={option.value}
          value={option.value}
          disabled={option.disabled}
          title={option.title}
          className={cn(
            'h-8 flex-1 rounded-md px-3 text-sm font-medium whitespace-nowrap text-gray-600 transition-colors',
            'hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:opacity-50',
            'data-[state=checked]:bg-white data-[state=checked]:text-gray-900 data-[state=checked]:shadow-sm',
          )}
        >
          {option.label}
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
