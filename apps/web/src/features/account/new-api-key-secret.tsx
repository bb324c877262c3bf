import { TriangleAlertIcon } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { DialogClose } from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { buildCurlExample } from './api-key-format.ts';

/**
 * The new key's secret, this once: a warning that it will not be shown again, the secret to copy, and
 * a request to try it with. Focus lands on the secret, selected, so a keyboard can copy it at once.
 */
export function NewApiKeySecret({ secret }: { secret: string }) {
  const secretId = useId();
  const secretRef = useRef<HTMLTextAreaElement>(null);
  const curl = buildCurlExample(secret, window.location.origin);

  useEffect(() => {
    secretRef.current?.focus();
    secretRef.current?.select();
  }, []);

  return (
    <div className="space-y-5">
      <Alert tone="warning" className="flex gap-3">
        <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>
          <strong className="font-semibold">This secret will not be shown again.</strong> Store it in a
          password manager or your app's secret store. If you lose it, revoke the key and create another.
        </p>
      </Alert>
      <div className="space-y-1.5">
        <Label htmlFor={secretId}>Secret key</Label>
        <div className="flex items-start gap-2">
          <textarea
            ref={secretRef}
            id={secretId}
            readOnly
            rows={2}
            spellCheck={false}
            autoComplete="off"
            value={secret}
            onFocus={(event) => event.currentTarget.select()}
            className="block min-w-0 flex-1 resize-none rounded-lg border border-gray-300 bg-gray-50 px-3 py-2 font-mono text-sm leading-relaxed break-all text-gray-900 shadow-xs [field-sizing:content] focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
          />
          <CopyButton text={secret} what="API key" label="Copy" size="md" />
        </div>
      </div>
      <div className="space-y-1.5">
        <p className="text-sm font-medium text-gray-800">Try it</p>
        <div className="relative rounded-lg bg-gray-950 p-4 pr-14">
          <code
            data-testid="api-key-curl"
            className="block font-mono text-xs leading-relaxed break-all text-gray-100"
          >
            {curl}
          </code>
          <CopyButton
            text={curl}
            what="cURL command"
            variant="ghost"
            className="absolute top-2.5 right-2.5 text-gray-300 hover:bg-gray-800 hover:text-white"
          />
        </div>
        <p className="text-sm text-gray-500">Lists the plans, which any key with the Read scope may see.</p>
      </div>
      <div className="flex justify-end">
        <DialogClose asChild>
          <Button type="button">Done</Button>
        </DialogClose>
      </div>
    </div>
  );
}
