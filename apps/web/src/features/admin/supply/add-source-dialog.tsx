import { SOURCE_GRAMMARS, SOURCE_STATES } from '@bytegate/contracts/admin-supply';
import { POOL_NAMES, POOL_TYPES } from '@bytegate/contracts/pools';
import { PlusIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../../api/api-client.ts';
import { useAddSource } from '../../../api/use-admin-supply.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../../components/ui/dialog.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';
import { SelectField } from '../exits/select-field.tsx';
import { ReasonField } from '../reason-field.tsx';
import {
  type AddSourceDraft,
  checkDraft,
  type DraftErrors,
  EMPTY_DRAFT,
  type EndpointProtocol,
  PROTOCOL_LABELS,
  serverErrors,
  toAddSourceRequest,
} from './add-source-form.ts';
import { GRAMMAR_LABELS, SOURCE_STATE_LABELS, SOURCE_STATE_MEANINGS } from './source-labels.tsx';

/** The fields in the order they show: the first one wrong takes the focus. */
const FIELD_ORDER: Array<keyof AddSourceDraft> = [
  'name',
  'pool',
  'kind',
  'grammar',
  'template',
  'passwordTemplate',
  'protocol',
  'endpoint',
  'username',
  'password',
  'costPerGb',
  'weight',
  'state',
  'reason',
];

/**
 * Adds a source as `bytegate sources add` does (admins): a wholesale network (its grammar, endpoint and
 * account) or a pool's own exits, with its cost, weight and state, and the reason the audit log keeps.
 * The password goes to the server once and is never shown again. Problems are shown under their fields:
 * the empty ones at once, the rest as the server names them.
 */
export function AddSourceDialog() {
  const [isOpen, setOpen] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const add = useAddSource();
  const passwordHintId = useId();
  const form = useForm<AddSourceDraft>({ defaultValues: EMPTY_DRAFT });
  const { errors, isSubmitting } = form.formState;
  const kind = form.watch('kind');
  const grammar = form.watch('grammar');
  const reason = form.watch('reason') ?? '';

  const showErrors = (found: DraftErrors) => {
    const fields = FIELD_ORDER.filter((field) => found[field] !== undefined);
    for (const field of fields) {
      form.setError(field, { message: found[field] });
    }
    if (fields[0]) {
      form.setFocus(fields[0]);
    }
    return fields.length > 0;
  };

  const onSubmit = form.handleSubmit(async (draft) => {
    setFormError(null);
    form.clearErrors();
    if (showErrors(checkDraft(draft))) {
      return;
    }
    try {
      const { source } = await add.mutateAsync(toAddSourceRequest(draft));
      toast.success(`${source.name} added: the gateway routes through it within a second`);
      setOpen(false);
      form.reset(EMPTY_DRAFT);
    } catch (error) {
      const named = error instanceof ApiError ? serverErrors(error.body, error.message) : {};
      if (!showErrors(named)) {
        setFormError(errorMessage(error, 'The source could not be added. Please try again.'));
      }
    }
  });

  const error = (field: keyof AddSourceDraft) => errors[field]?.message;
  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) {
          form.reset(EMPTY_DRAFT);
          setFormError(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <PlusIcon aria-hidden="true" /> Add source
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Add source"
        description="A wholesale network in front of a vendor’s IPs, or a pool’s own exits. The gateway routes through it within a second."
        className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto"
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {formError ? <Alert tone="error">{formError}</Alert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Name" autoComplete="off" error={error('name')} {...form.register('name')} />
            <SelectField label="Pool" error={error('pool')} {...form.register('pool')}>
              {POOL_TYPES.map((value) => (
                <option key={value} value={value}>
                  {POOL_NAMES[value]}
                </option>
              ))}
            </SelectField>
          </div>
          <div className="space-y-1.5">
            <span className="block text-sm font-medium text-gray-800">Kind</span>
            <SegmentedControl
              label="Kind"
              value={kind}
              onValueChange={(value) => form.setValue('kind', value)}
              options={[
                { value: 'network', label: 'Wholesale network' },
                { value: 'exits', label: 'Our own exits' },
              ]}
              className="w-full"
            />
            {error('kind') ? (
              <p role="alert" className="text-sm text-red-600">
                {error('kind')}
              </p>
            ) : null}
          </div>
          {kind === 'network' ? (
            <fieldset className="space-y-4">
              <legend className="sr-only">The network</legend>
              <SelectField label="Grammar" error={error('grammar')} {...form.register('grammar')}>
                {SOURCE_GRAMMARS.map((value) => (
                  <option key={value} value={value}>
                    {value === 'template' ? 'Template (any other vendor)' : GRAMMAR_LABELS[value]}
                  </option>
                ))}
              </SelectField>
              {grammar === 'template' ? (
                <div className="grid gap-4">
                  <FormField
                    label="Username template"
                    placeholder="{user}[-country-{country:lower}][-session-{session}]"
                    autoComplete="off"
                    spellCheck={false}
                    className="font-mono"
                    error={error('template')}
                    {...form.register('template')}
                  />
                  <FormField
                    label="Password template"
                    hint="(optional: {password} by default)"
                    autoComplete="off"
                    spellCheck={false}
                    className="font-mono"
                    error={error('passwordTemplate')}
                    {...form.register('passwordTemplate')}
                  />
                </div>
              ) : null}
              <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
                <SelectField label="Protocol" error={error('protocol')} {...form.register('protocol')}>
                  {(Object.keys(PROTOCOL_LABELS) as EndpointProtocol[]).map((value) => (
                    <option key={value} value={value}>
                      {PROTOCOL_LABELS[value]}
                    </option>
                  ))}
                </SelectField>
                <FormField
                  label="Host and port"
                  placeholder="pr.oxylabs.io:7777"
                  autoComplete="off"
                  spellCheck={false}
                  error={error('endpoint')}
                  {...form.register('endpoint')}
                />
              </div>
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField
                  label="Account username"
                  autoComplete="off"
                  spellCheck={false}
                  error={error('username')}
                  {...form.register('username')}
                />
                <FormField
                  label="Account password"
                  type="password"
                  autoComplete="new-password"
                  error={error('password')}
                  aria-describedby={passwordHintId}
                  {...form.register('password')}
                />
              </div>
              <p id={passwordHintId} className="-mt-2 text-xs text-gray-600">
                Kept on the server and never shown again: the console shows it as ***.
              </p>
            </fieldset>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              label="Cost per GB"
              hint="(USD)"
              inputMode="decimal"
              autoComplete="off"
              placeholder="1.20"
              error={error('costPerGb')}
              {...form.register('costPerGb')}
            />
            <FormField
              label="Weight"
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              error={error('weight')}
              {...form.register('weight')}
            />
          </div>
          <SelectField label="State" error={error('state')} {...form.register('state')}>
            {SOURCE_STATES.map((state) => (
              <option key={state} value={state}>
                {SOURCE_STATE_LABELS[state]}: {SOURCE_STATE_MEANINGS[state]}
              </option>
            ))}
          </SelectField>
          <ReasonField length={reason.length} error={error('reason')} {...form.register('reason')} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" isLoading={isSubmitting}>
              Add source
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
