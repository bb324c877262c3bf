import { CheckIcon, CopyIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button, type ButtonProps } from './button.tsx';

/** Puts text on the clipboard; falls back to a hidden textarea where the Clipboard API is refused. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Insecure origins and some embedded browsers have no clipboard API: fall through.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const isCopied = document.execCommand('copy');
  area.remove();
  if (!isCopied) {
    throw new Error('copy refused');
  }
}

interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  text: string;
  /** What is copied, for screen readers and the toast: 'login', 'cURL command'. */
  what: string;
  /** A visible label; without one the button is an icon. */
  label?: string;
}

/** A copy button that confirms with a check mark and a toast, and says so when copying fails. */
export function CopyButton({ text, what, label, variant = 'secondary', size, ...props }: CopyButtonProps) {
  const [isCopied, setIsCopied] = useState(false);
  useEffect(() => {
    if (!isCopied) {
      return;
    }
    const timer = setTimeout(() => setIsCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [isCopied]);
  const Icon = isCopied ? CheckIcon : CopyIcon;
  return (
    <Button
      type="button"
      variant={variant}
      size={size ?? (label ? 'sm' : 'icon')}
      aria-label={label ? undefined : `Copy ${what}`}
      onClick={() => {
        copyText(text).then(
          () => {
            setIsCopied(true);
            toast.success(`Copied ${what}`);
          },
          () => toast.error(`Could not copy the ${what}; select it and copy by hand`),
        );
      }}
      {...props}
    >
      <Icon aria-hidden="true" className={isCopied ? 'text-emerald-600' : undefined} />
      {label}
    </Button>
  );
}
