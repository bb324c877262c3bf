import { CheckIcon, ChevronDownIcon } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { type ReactNode, useId } from 'react';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';

export interface MenuOption {
  value: string;
  label: ReactNode;
  /** A second line under the label. */
  hint?: ReactNode;
}

interface MenuSelectProps {
  /** What is chosen, shown above the button and read with it: 'Status', then the choice. */
  label: string;
  value: string;
  /** The chosen option as the button shows it. */
  display: ReactNode;
  options: MenuOption[];
  onSelect: (value: string) => void;
  isBusy?: boolean;
  disabled?: boolean;
  className?: string;
}

/**
 * A choice that acts at once (a thread's status, its assignee): a button that opens a menu of radio
 * items. Unlike a native select, moving through the options with the arrow keys does not choose one;
 * Enter or a click does, so browsing never sends (and audits) a change. The menu is not portalled:
 * it stays inside the page's landmarks, where screen reader users (and axe) expect content.
 */
export function MenuSelect({
  label,
  value,
  display,
  options,
  onSelect,
  isBusy,
  disabled,
  className,
}: MenuSelectProps) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <span id={`${id}-label`} className="block text-sm font-medium text-gray-800">
        {label}
      </span>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          id={id}
          disabled={disabled || isBusy}
          aria-labelledby={`${id}-label ${id}`}
          className={cn(
            buttonVariants({ variant: 'secondary' }),
            'w-full justify-between px-3 font-normal data-[state=open]:border-brand-500 data-[state=open]:ring-2 data-[state=open]:ring-brand-500/30',
            className,
          )}
        >
          <span className="flex min-w-0 items-center gap-2 truncate">{display}</span>
          {isBusy ? <Spinner /> : <ChevronDownIcon className="text-gray-500" aria-hidden="true" />}
        </DropdownMenu.Trigger>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          className="z-50 max-h-80 min-w-(--radix-dropdown-menu-trigger-width) overflow-y-auto rounded-lg border border-gray-200 bg-white p-1 shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-semibold tracking-wide text-gray-500 uppercase">
            {label}
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={value} onValueChange={onSelect}>
            {options.map((option) => (
              <DropdownMenu.RadioItem
                key={option.value}
                value={option.value}
                className="relative flex cursor-default items-start gap-2 rounded-md py-2 pr-3 pl-8 text-sm text-gray-900 outline-none select-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900"
              >
                <DropdownMenu.ItemIndicator className="absolute top-2.5 left-2.5">
                  <CheckIcon className="size-4 text-brand-700" aria-hidden="true" />
                </DropdownMenu.ItemIndicator>
                <span className="min-w-0">
                  <span className="block">{option.label}</span>
                  {option.hint ? <span className="block text-xs text-gray-600">{option.hint}</span> : null}
                </span>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Root>
    </div>
  );
}
