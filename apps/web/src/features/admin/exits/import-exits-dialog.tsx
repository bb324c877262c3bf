import { EXIT_IMPORT_MAX_BYTES, type ImportProblem } from '@bytegate/contracts/admin-exits';
import { UploadIcon } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../../api/api-client.ts';
import { useImportExits } from '../../../api/use-admin-exits.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';

type Format = 'csv' | 'json';

const EXAMPLES: Record<Format, string> = {
  csv: 'name,pool,country,city,kind,localAddress,upstreamUrl\nAshburn 2,datacenter,US,Ashburn,direct,203.0.113.8,\nBerlin 7,residential,DE,Berlin,upstream,,socks5://user:pass@198.51.100.4:1080',
  json: '[\n  { "name": "Ashburn 2", "pool": "datacenter", "country": "US", "localAddress": "203.0.113.8" }\n]',
};

/** A refusal's problems, when the server named them line by line. */
function problemsOf(error: unknown): ImportProblem[] {
  if (error instanceof ApiError && Array.isArray(error.body.problems)) {
    return error.body.problems as ImportProblem[];
  }
  return [];
}

/**
 * Imports exits from a CSV (a header line, then one exit a line) or a JSON array, pasted or read from a
 * file: the columns of `bytegate exits import`. All or nothing: a refusal lists every line to fix.
 */
export function ImportExitsDialog() {
  const id = useId();
  const [isOpen, setOpen] = useState(false);
  const [format, setFormat] = useState<Format>('csv');
  const [content, setContent] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<ImportProblem[]>([]);
  const importing = useImportExits();

  const reset = () => {
    setContent('');
    setReason('');
    setError(null);
    setProblems([]);
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) {
      return;
    }
    if (file.size > EXIT_IMPORT_MAX_BYTES) {
      setError('The file is over 1 MiB: split it, or use bytegate exits import on the server.');
      return;
    }
    if (/\.json$/i.test(file.name)) {
      setFormat('json');
    } else if (/\.csv$/i.test(file.name)) {
      setFormat('csv');
    }
    setContent(await file.text());
    setError(null);
    setProblems([]);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setProblems([]);
    if (content.trim() === '') {
      setError('Paste the exits or choose a file first.');
      return;
    }
    try {
      const { imported } = await importing.mutateAsync({
        format,
        content,
        reason: reason.trim() || undefined,
      });
      toast.success(`Imported ${imported} ${imported === 1 ? 'exit' : 'exits'}`);
      setOpen(false);
      reset();
    } catch (failure) {
      setError(errorMessage(failure, 'The exits could not be imported. Please try again.'));
      setProblems(problemsOf(failure));
    }
  };

  const where = format === 'csv' ? 'Line' : 'Item';
  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) {
          reset();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary">
          <UploadIcon aria-hidden="true" /> Import
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Import exits"
        description="A CSV with a header line, or a JSON array, with the columns of bytegate exits import. Nothing is added unless every line is right."
        className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto"
      >
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
          {error ? (
            <Alert tone="error">
              <p className="font-medium">{error}</p>
              {problems.length > 0 ? (
                <ul className="mt-2 max-h-40 space-y-1 overflow-y-auto" aria-label="Problems by line">
                  {problems.map((problem) => (
                    <li key={problem.line}>
                      <span className="font-medium">
                        {where} {problem.line}:
                      </span>{' '}
                      {problem.message}
                    </li>
                  ))}
                </ul>
              ) : null}
            </Alert>
          ) : null}
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
            <SegmentedControl
              label="Format"
              value={format}
              onValueChange={setFormat}
              options={[
                { value: 'csv', label: 'CSV' },
                { value: 'json', label: 'JSON' },
              ]}
            />
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-file`}>Or read a file</Label>
              <Input
                id={`${id}-file`}
                type="file"
                accept=".csv,.json,text/csv,application/json"
                onChange={(event) => void onFile(event)}
                className="h-auto py-1.5 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-gray-100 file:px-3 file:py-1 file:text-sm file:font-medium"
              />
            </div>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-content`}>Exits</Label>
            <Textarea
              id={`${id}-content`}
              rows={9}
              value={content}
              onChange={(event) => setContent(event.target.value)}
              placeholder={EXAMPLES[format]}
              spellCheck={false}
              aria-describedby={`${id}-hint`}
              className="font-mono text-xs"
            />
            <p id={`${id}-hint`} className="text-xs text-gray-600">
              Columns: name, pool, country, kind (direct or upstream), localAddress, upstreamUrl, state, city,
              zip, asn, asnName, mobileGeneration, risky. Up to 1 MiB.
            </p>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-reason`}>
              Reason <span className="font-normal text-gray-500">(optional, kept in the audit log)</span>
            </Label>
            <Input
              id={`${id}-reason`}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              autoComplete="off"
            />
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" isLoading={importing.isPending}>
              Import exits
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
