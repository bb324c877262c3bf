import { reasonField } from '@bytegate/contracts/admin';
import type { AdminSource } from '@bytegate/contracts/admin-supply';
import {
  type ByteUnitsName,
  type DateOrderName,
  type DecimalMarkName,
  VENDOR_USAGE_MAX_BYTES,
  type VendorUsageProblem,
} from '@bytegate/contracts/admin-supply-reconciliation';
import { UploadIcon } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../../api/api-client.ts';
import { useImportVendorUsage } from '../../../api/use-admin-supply.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { SelectField } from '../exits/select-field.tsx';
import { ReasonField } from '../reason-field.tsx';

const EXAMPLE = 'Date,Traffic (GB)\n2025-03-01,12.5\n2025-03-02,11.75';

/** A refusal's problems, when the server named them line by line. */
function problemsOf(error: unknown): VendorUsageProblem[] {
  if (error instanceof ApiError && Array.isArray(error.body.problems)) {
    return error.body.problems as VendorUsageProblem[];
  }
  return [];
}

/**
 * An admin imports a vendor's usage export for one source: a CSV read from a file or pasted, how its
 * units and dates read, and the reason the audit log keeps. All or nothing: a refusal lists every line to
 * fix; a day imported again replaces its figure.
 */
export function ImportVendorUsageDialog({ source }: { source: AdminSource }) {
  const id = useId();
  const [isOpen, setOpen] = useState(false);
  const [content, setContent] = useState('');
  const [units, setUnits] = useState<ByteUnitsName>('decimal');
  const [dateOrder, setDateOrder] = useState<DateOrderName | ''>('');
  const [decimalMark, setDecimalMark] = useState<DecimalMarkName | ''>('');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<VendorUsageProblem[]>([]);
  const importing = useImportVendorUsage();

  const reset = () => {
    setContent('');
    setReason('');
    setReasonError(undefined);
    setError(null);
    setProblems([]);
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) {
      return;
    }
    if (file.size > VENDOR_USAGE_MAX_BYTES) {
      setError('The file is over 1 MiB: split it, or use bytegate sources reconcile on the server.');
      return;
    }
    setContent(await file.text());
    setError(null);
    setProblems([]);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setProblems([]);
    const checked = reasonField.safeParse(reason);
    setReasonError(checked.success ? undefined : checked.error.issues[0]?.message);
    if (content.trim() === '') {
      setError('Choose the vendor’s usage export, or paste it, first.');
      return;
    }
    if (!checked.success) {
      return;
    }
    try {
      const { imported, reconciliation } = await importing.mutateAsync({
        sourceId: source.id,
        content,
        units,
        ...(dateOrder ? { dateOrder } : {}),
        ...(decimalMark ? { decimalMark } : {}),
        reason: checked.data,
      });
      const flagged = reconciliation.totals.flaggedDays;
      toast.success(
        `Imported ${imported.days} ${imported.days === 1 ? 'day' : 'days'} of ${source.name}’s usage: ${flagged === 0 ? 'none flagged' : `${flagged} flagged`}`,
      );
      setOpen(false);
      reset();
    } catch (failure) {
      setError(errorMessage(failure, 'The usage could not be imported. Please try again.'));
      setProblems(problemsOf(failure));
    }
  };

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
        <Button variant="secondary" size="sm">
          <UploadIcon aria-hidden="true" /> Import usage
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Import ${source.name}’s usage`}
        description="The vendor’s usage export as a CSV: a date column (UTC days) and a traffic column in bytes, or with its unit (Traffic (GB), 1.5 GB), under a header among its first lines. A day imported again replaces its figure. Nothing is stored unless every row is right."
        className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto"
      >
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
          {error ? (
            <Alert tone="error">
              <p className="font-medium">{error}</p>
              {problems.length > 0 ? (
                <ul className="mt-2 max-h-40 space-y-1 overflow-y-auto" aria-label="Problems by line">
                  {problems.map((problem) => (
                    <li key={`${problem.line}-${problem.message}`}>
                      <span className="font-medium">Line {problem.line}:</span> {problem.message}
                    </li>
                  ))}
                </ul>
              ) : null}
            </Alert>
          ) : null}
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-file`}>Usage export (CSV)</Label>
            <Input
              id={`${id}-file`}
              type="file"
              accept=".csv,.tsv,.txt,text/csv,text/plain"
              onChange={(event) => void onFile(event)}
              className="h-auto py-1.5 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-gray-100 file:px-3 file:py-1 file:text-sm file:font-medium"
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-content`}>Or paste it</Label>
            <Textarea
              id={`${id}-content`}
              rows={6}
              value={content}
              onChange={(event) => setContent(event.target.value)}
              placeholder={EXAMPLE}
              spellCheck={false}
              aria-describedby={`${id}-hint`}
              className="font-mono text-xs"
            />
            <p id={`${id}-hint`} className="text-xs text-gray-600">
              Several rows of a day are added up; a Total row is left out. Up to 1 MiB.
            </p>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="KB, MB, GB and TB are"
              value={units}
              onChange={(event) => setUnits(event.target.value as ByteUnitsName)}
            >
              <option value="decimal">Decimal (1 GB = 1000³ bytes)</option>
              <option value="binary">Binary (1 GB = 1024³ bytes)</option>
            </SelectField>
            <SelectField
              label="Dates like 03/04/2025"
              value={dateOrder}
              onChange={(event) => setDateOrder(event.target.value as DateOrderName | '')}
            >
              <option value="">Read from the file</option>
              <option value="mdy">Month first (March 4)</option>
              <option value="dmy">Day first (3 April)</option>
            </SelectField>
            <SelectField
              label="Decimal mark"
              value={decimalMark}
              onChange={(event) => setDecimalMark(event.target.value as DecimalMarkName | '')}
            >
              <option value="">Read from the file</option>
              <option value="point">Point (1,234.5)</option>
              <option value="comma">Comma (1.234,5)</option>
            </SelectField>
          </div>
          <ReasonField
            length={reason.length}
            error={reasonError}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" isLoading={importing.isPending}>
              Import usage
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
