import type { ExitFields } from '@bytegate/contracts/admin-exits';
import { POOL_NAMES, POOL_TYPES, type PoolType } from '@bytegate/contracts/pools';
import { PlusIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../../api/api-client.ts';
import { useAddExit } from '../../../api/use-admin-exits.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../../components/ui/dialog.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { SelectField } from './select-field.tsx';

interface AddExitForm {
  name: string;
  pool: PoolType;
  country: string;
  kind: 'direct' | 'upstream';
  localAddress: string;
  upstreamUrl: string;
  state: string;
  city: string;
  zip: string;
  asn: string;
  asnName: string;
  mobileGeneration: string;
  risky: boolean;
  reason: string;
}

const EMPTY: AddExitForm = {
  name: '',
  pool: 'datacenter',
  country: '',
  kind: 'direct',
  localAddress: '',
  upstreamUrl: '',
  state: '',
  city: '',
  zip: '',
  asn: '',
  asnName: '',
  mobileGeneration: '',
  risky: false,
  reason: '',
};

/** The exit as the API takes it: fields left empty are not given (the server's rules read them). */
function toExitFields(values: AddExitForm): ExitFields {
  const exit: Record<string, unknown> = { risky: values.risky };
  for (const key of Object.keys(values) as Array<keyof AddExitForm>) {
    const value = values[key];
    if (key === 'risky' || key === 'reason' || typeof value !== 'string' || value.trim() === '') {
      continue;
    }
    if (
      (key === 'localAddress' && values.kind !== 'direct') ||
      (key === 'upstreamUrl' && values.kind !== 'upstream')
    ) {
      continue;
    }
    if (key === 'mobileGeneration' && values.pool !== 'mobile') {
      continue;
    }
    exit[key] = value.trim();
  }
  return exit as ExitFields;
}

/**
 * Adds one exit. The rules (country code, proxy URL, address) are the server's, as for
 * `bytegate exits add`: a refusal is shown under the field it names.
 */
export function AddExitDialog() {
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const add = useAddExit();
  const id = useId();
  const form = useForm<AddExitForm>({ defaultValues: EMPTY });
  const { errors, isSubmitting } = form.formState;
  const kind = form.watch('kind');
  const pool = form.watch('pool');
  const risky = form.watch('risky');

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const { exit } = await add.mutateAsync({
        exit: toExitFields(values),
        reason: values.reason.trim() || undefined,
      });
      toast.success(`${exit.name} added: the gateway routes through it within a second`);
      setOpen(false);
      form.reset(EMPTY);
    } catch (error) {
      const field = error instanceof ApiError ? error.body.field : undefined;
      if (typeof field === 'string' && field in EMPTY) {
        form.setError(field as keyof AddExitForm, { message: error instanceof Error ? error.message : '' });
        form.setFocus(field as keyof AddExitForm);
      } else {
        setServerError(errorMessage(error, 'The exit could not be added. Please try again.'));
      }
    }
  });

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) {
          form.reset(EMPTY);
          setServerError(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <PlusIcon aria-hidden="true" /> Add exit
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Add exit"
        description="A direct exit leaves from this host (optionally from one of its addresses); an upstream exit relays through another provider's proxy."
        className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto"
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <FormField
            label="Name"
            autoComplete="off"
            error={errors.name?.message}
            {...form.register('name')}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField label="Pool" error={errors.pool?.message} {...form.register('pool')}>
              {POOL_TYPES.map((value) => (
                <option key={value} value={value}>
                  {POOL_NAMES[value]}
                </option>
              ))}
            </SelectField>
            <FormField
              label="Country"
              hint="(two letters)"
              maxLength={2}
              autoComplete="off"
              placeholder="US"
              className="uppercase"
              error={errors.country?.message}
              {...form.register('country')}
            />
          </div>
          <div className="space-y-1.5">
            <span id={`${id}-kind`} className="block text-sm font-medium text-gray-800">
              Kind
            </span>
            <SegmentedControl
              label="Kind"
              value={kind}
              onValueChange={(value) => form.setValue('kind', value)}
              options={[
                { value: 'direct', label: 'Direct' },
                { value: 'upstream', label: 'Upstream proxy' },
              ]}
              className="w-full"
            />
            {errors.kind?.message ? (
              <p role="alert" className="text-sm text-red-600">
                {errors.kind.message}
              </p>
            ) : null}
          </div>
          {kind === 'direct' ? (
            <FormField
              label="Local address"
              hint="(optional)"
              placeholder="203.0.113.7"
              autoComplete="off"
              spellCheck={false}
              error={errors.localAddress?.message}
              {...form.register('localAddress')}
            />
          ) : (
            <FormField
              label="Upstream URL"
              placeholder="socks5://user:pass@198.51.100.4:1080"
              autoComplete="off"
              spellCheck={false}
              error={errors.upstreamUrl?.message}
              {...form.register('upstreamUrl')}
            />
          )}
          <fieldset className="grid gap-4 sm:grid-cols-3">
            <legend className="mb-2 text-sm font-medium text-gray-800">
              Location <span className="font-normal text-gray-500">(optional)</span>
            </legend>
            <FormField label="State" error={errors.state?.message} {...form.register('state')} />
            <FormField label="City" error={errors.city?.message} {...form.register('city')} />
            <FormField label="ZIP" error={errors.zip?.message} {...form.register('zip')} />
            <FormField
              label="ASN"
              inputMode="numeric"
              error={errors.asn?.message}
              {...form.register('asn')}
            />
            <div className="sm:col-span-2">
              <FormField label="ASN name" error={errors.asnName?.message} {...form.register('asnName')} />
            </div>
          </fieldset>
          {pool === 'mobile' ? (
            <SelectField
              label="Network generation"
              error={errors.mobileGeneration?.message}
              {...form.register('mobileGeneration')}
            >
              <option value="">Not given</option>
              {['5G', '4G', 'LTE', '3G'].map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </SelectField>
          ) : null}
          <div className="flex items-start justify-between gap-4 rounded-lg border border-gray-200 px-4 py-3">
            <div>
              <Label htmlFor={`${id}-risky`}>Risky address</Label>
              <p id={`${id}-risky-hint`} className="text-xs text-gray-600">
                Skipped by the anonymous filter (known proxy, hosting or abuse ranges).
              </p>
            </div>
            <Switch
              id={`${id}-risky`}
              checked={risky}
              aria-describedby={`${id}-risky-hint`}
              onCheckedChange={(checked) => form.setValue('risky', checked)}
            />
          </div>
          <FormField
            label="Reason"
            hint="(optional, kept in the audit log)"
            autoComplete="off"
            error={errors.reason?.message}
            {...form.register('reason')}
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" isLoading={isSubmitting}>
              Add exit
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
