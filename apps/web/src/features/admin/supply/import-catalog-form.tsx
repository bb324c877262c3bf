import { REASON_MIN_LENGTH } from '@bytegate/contracts/admin';
import {
  CATALOG_IMPORT_MAX_BYTES,
  type CatalogFormat,
  type ImportCatalogResponse,
} from '@bytegate/contracts/admin-catalog';
import type { ImportProblem } from '@bytegate/contracts/admin-exits';
import type { AdminSource } from '@bytegate/contracts/admin-supply';
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../../api/api-client.ts';
import { useImportCatalog } from '../../../api/use-admin-supply.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { formatInteger } from '../format.ts';

interface ChosenFile {
  name: string;
  format: CatalogFormat;
  content: string;
}

/** A refusal's problems, when the server named them line by line. */
function problemsOf(error: unknown): ImportProblem[] {
  if (error instanceof ApiError && Array.isArray(error.body.problems)) {
    return error.body.problems as ImportProblem[];
  }
  return [];
}

/** What an import did, in a sentence. */
function importedSentence(done: ImportCatalogResponse): string {
  const dropped = done.dropped > 0 ? `, ${formatInteger(done.dropped)} no longer listed dropped` : '';
  return `Read ${formatInteger(done.read)} lines: ${formatInteger(done.added)} new places, ${formatInteger(done.alreadyListed)} already there${dropped}. The catalog lists ${formatInteger(done.entries)} places in ${formatInteger(done.countries)} countries.`;
}

/**
 * An admin's import of the vendor's list of places into a network's catalog: a CSV with a header line or
 * a JSON file, merged with what is there or replacing the last import, with a reason for the audit log.
 * All or nothing: a refusal lists the lines to fix.
 */
export function ImportCatalogForm({ source }: { source: AdminSource }) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [isReplacing, setReplacing] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<ImportProblem[]>([]);
  const [done, setDone] = useState<ImportCatalogResponse | null>(null);
  const importing = useImportCatalog();

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setError(null);
    setProblems([]);
    setDone(null);
    setFile(null);
    if (!chosen) {
      return;
    }
    if (chosen.size > CATALOG_IMPORT_MAX_BYTES) {
      setError('The file is over 8 MiB: import it with bytegate sources catalog import on the server.');
      return;
    }
    setFile({
      name: chosen.name,
      format: /\.json$/i.test(chosen.name) ? 'json' : 'csv',
      content: await chosen.text(),
    });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setProblems([]);
    setDone(null);
    if (!file) {
      setError('Choose the vendor’s file first.');
      fileInput.current?.focus();
      return;
    }
    if (reason.trim().length < REASON_MIN_LENGTH) {
      setError(`Give a reason of at least ${REASON_MIN_LENGTH} characters: the audit log keeps it.`);
      return;
    }
    try {
      const answer = await importing.mutateAsync({
        sourceId: source.id,
        format: file.format,
        content: file.content,
        replace: isReplacing,
        reason: reason.trim(),
      });
      setDone(answer);
      setReason('');
    } catch (failure) {
      setError(errorMessage(failure, 'The places could not be imported. Please try again.'));
      setProblems(problemsOf(failure));
    }
  };

  const where = file?.format === 'json' ? 'Item' : 'Line';
  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-lg border border-gray-200 p-4"
    >
      <h3 id={`${id}-title`} className="text-sm font-semibold text-gray-900">
        Import the vendor’s list
      </h3>
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
      {done ? <Alert tone="info">{importedSentence(done)}</Alert> : null}
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-file`}>File</Label>
        <Input
          ref={fileInput}
          id={`${id}-file`}
          type="file"
          accept=".csv,.json,text/csv,application/json"
          aria-describedby={`${id}-file-hint`}
          onChange={(event) => void onFile(event)}
          className="h-auto py-1.5 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-gray-100 file:px-3 file:py-1 file:text-sm file:font-medium"
        />
        <p id={`${id}-file-hint`} className="text-xs text-gray-600">
          A CSV whose header names the columns (country or cc, state or region, city, zip, asn), or JSON: an
          array of such rows, or countries and their cities ({'{"US": ["Dallas"]}'}). Up to 8 MiB.
        </p>
      </div>
      <div className="flex items-start justify-between gap-4">
        <div>
          <Label htmlFor={`${id}-replace`}>Replace the last import</Label>
          <p id={`${id}-replace-hint`} className="text-xs text-gray-600">
            Drops the imported places this file no longer lists. Places traffic found stay.
          </p>
        </div>
        <Switch
          id={`${id}-replace`}
          checked={isReplacing}
          aria-describedby={`${id}-replace-hint`}
          onCheckedChange={setReplacing}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-reason`}>
          Reason <span className="font-normal text-gray-500">(kept in the audit log)</span>
        </Label>
        <Input
          id={`${id}-reason`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          autoComplete="off"
        />
      </div>
      <div className="flex justify-end">
        <Button type="submit" isLoading={importing.isPending}>
          Import places
        </Button>
      </div>
    </form>
  );
}
