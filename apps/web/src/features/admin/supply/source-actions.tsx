import {
  type AdminSource,
  type ChangeSourceRequest,
  SOURCE_STATES,
  SOURCE_WEIGHT_MAX,
  type SourceState,
  sourceChangeFieldsSchema,
} from '@bytegate/contracts/admin-supply';
import { BellOffIcon, SlidersHorizontalIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { useChangeSource } from '../../../api/use-admin-supply.ts';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { SelectField } from '../exits/select-field.tsx';
import { ReasonDialog } from '../reason-dialog.tsx';
import { alarmSentence, formatCents, SOURCE_STATE_LABELS, SOURCE_STATE_MEANINGS } from './source-labels.tsx';

// An admin's changes to a source, each confirmed with the reason the audit log keeps (ReasonDialog):
// its weight, state and cost per GB in one dialog, and clearing its alarm in another.

interface Draft {
  weight: string;
  state: SourceState;
  costPerGb: string;
}
type FieldErrors = Partial<Record<keyof Draft | 'form', string>>;

const draftOf = (source: AdminSource): Draft => ({
  weight: String(source.weight),
  state: source.state,
  costPerGb: (source.costPerGbCents / 100).toFixed(2),
});

/** What the draft changes, in the request's spelling; the unchanged fields are left out. */
function changesOf(source: AdminSource, draft: Draft): Omit<ChangeSourceRequest, 'reason'> {
  const weight = draft.weight.trim() === '' ? Number.NaN : Number(draft.weight);
  const cost = draft.costPerGb.trim().replace(/^\$/, '');
  return {
    ...(weight !== source.weight ? { weight } : {}),
    ...(draft.state !== source.state ? { state: draft.state } : {}),
    ...(Math.round(Number(cost) * 100) !== source.costPerGbCents ? { costPerGb: cost } : {}),
  };
}

/** Weight, state and cost per GB, with a reason; the server's refusal shows above the reason. */
export function ChangeSourceDialog({ source }: { source: AdminSource }) {
  const change = useChangeSource();
  const [draft, setDraft] = useState<Draft>(() => draftOf(source));
  const [errors, setErrors] = useState<FieldErrors>({});

  const validate = () => {
    const changes = changesOf(source, draft);
    const parsed = sourceChangeFieldsSchema.safeParse(changes);
    const found: FieldErrors = {};
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const field = issue.path[0] as keyof Draft;
      found[field] ??= issue.message;
    }
    if (parsed.success && Object.keys(changes).length === 0) {
      found.form = 'Nothing changed: set a new weight, state or cost first.';
    }
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  return (
    <ReasonDialog
      trigger={
        <Button variant="secondary" size="sm" aria-label={`Change ${source.name}`}>
          <SlidersHorizontalIcon aria-hidden="true" />
          Change
        </Button>
      }
      title={`Change ${source.name}`}
      description="The gateway routes by the new weight and state within a second. A new cost per GB prices the traffic carried from now on; the days before keep the cost they were carried at."
      confirmLabel="Save changes"
      failureMessage="The source could not be changed. Please try again."
      validate={validate}
      onOpenChange={(isOpen) => {
        if (isOpen) {
          setDraft(draftOf(source));
          setErrors({});
        }
      }}
      onConfirm={async ({ reason }) => {
        const { source: saved } = await change.mutateAsync({
          sourceId: source.id,
          ...changesOf(source, draft),
          reason,
        });
        toast.success(
          `${saved.name}: ${SOURCE_STATE_LABELS[saved.state].toLowerCase()}, weight ${saved.weight.toLocaleString('en-US')}, ${formatCents(saved.costPerGbCents)} a GB`,
        );
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Weight"
          type="number"
          inputMode="numeric"
          min={0}
          max={SOURCE_WEIGHT_MAX}
          step={1}
          value={draft.weight}
          error={errors.weight}
          onChange={(event) => setDraft({ ...draft, weight: event.target.value })}
        />
        <FormField
          label="Cost per GB"
          hint="(USD)"
          inputMode="decimal"
          autoComplete="off"
          value={draft.costPerGb}
          error={errors.costPerGb}
          onChange={(event) => setDraft({ ...draft, costPerGb: event.target.value })}
        />
      </div>
      <SelectField
        label="State"
        value={draft.state}
        error={errors.state}
        onChange={(event) => setDraft({ ...draft, state: event.target.value as SourceState })}
      >
        {SOURCE_STATES.map((state) => (
          <option key={state} value={state}>
            {SOURCE_STATE_LABELS[state]}: {SOURCE_STATE_MEANINGS[state]}
          </option>
        ))}
      </SelectField>
      {errors.form ? (
        <p role="alert" className="text-sm text-red-600">
          {errors.form}
        </p>
      ) : null}
    </ReasonDialog>
  );
}

/** Clears a source's alarm once its cause is handled, with a reason. */
export function ClearAlarmDialog({ source }: { source: AdminSource }) {
  const change = useChangeSource();
  return (
    <ReasonDialog
      trigger={
        <Button variant="ghost" size="sm" className="-ml-3" aria-label={`Clear alarm of ${source.name}`}>
          <BellOffIcon aria-hidden="true" />
          Clear alarm
        </Button>
      }
      title="Clear alarm"
      description={`${source.name}: “${alarmSentence(source.alarm ?? '')}”. Clear it once the cause is handled (the password rotated, the account topped up); the gateway raises it again at the next such refusal.`}
      confirmLabel="Clear alarm"
      failureMessage="The alarm could not be cleared. Please try again."
      onConfirm={async ({ reason }) => {
        await change.mutateAsync({ sourceId: source.id, clearAlarm: true, reason });
        toast.success(`The alarm of ${source.name} is cleared`);
      }}
    />
  );
}
