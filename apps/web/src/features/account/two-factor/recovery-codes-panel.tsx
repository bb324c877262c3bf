import { DownloadIcon, TriangleAlertIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { DialogClose } from '../../../components/ui/dialog.tsx';

/** The text of the .txt file (and of Copy): what the codes are, and the codes one a line. */
export function recoveryCodesText(codes: string[], email: string | null): string {
  return [
    `Bytegate recovery codes${email ? ` for ${email}` : ''}`,
    '',
    'Each code signs you in once in place of your authenticator app. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * Recovery codes, shown this once: a warning, the ten codes, Copy and Download .txt, and Done. Focus
 * lands on the list's heading so a screen reader reads the warning and then the codes.
 */
export function RecoveryCodesPanel({ codes, email }: { codes: string[]; email: string | null }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  const text = recoveryCodesText(codes, email);

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'bytegate-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    toast.success('Recovery codes downloaded');
  };

  return (
    <div className="space-y-5">
      <Alert tone="warning" className="flex gap-3">
        <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>
          <strong className="font-semibold">These codes will not be shown again.</strong> Each one signs you
          in once if you lose your phone. Store them in a password manager or print them.
        </p>
      </Alert>
      <div className="space-y-2">
        <h3 ref={headingRef} tabIndex={-1} className="text-sm font-medium text-gray-800 focus:outline-none">
          Your recovery codes
        </h3>
        <ol
          aria-label="Recovery codes"
          data-testid="recovery-codes"
          className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-lg border border-gray-200 bg-gray-50 px-4 py-3 font-mono text-sm text-gray-900"
        >
          {codes.map((code) => (
            <li key={code} className="tabular-nums">
              {code}
            </li>
          ))}
        </ol>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:justify-between">
        <div className="flex gap-2">
          <CopyButton
            text={text}
            what="recovery codes"
            label="Copy"
            size="md"
            className="flex-1 sm:flex-none"
          />
          <Button type="button" variant="secondary" onClick={download} className="flex-1 sm:flex-none">
            <DownloadIcon aria-hidden="true" />
            Download .txt
          </Button>
        </div>
        <DialogClose asChild>
          <Button type="button">I saved them</Button>
        </DialogClose>
      </div>
    </div>
  );
}
