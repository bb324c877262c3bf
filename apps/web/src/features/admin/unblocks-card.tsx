import { type CustomerDetailResponse, reasonField } from '@bytegate/contracts/admin';
import {
  parseUnblockHost,
  parseUnblockPort,
  unblockHostMessage,
  unblockPortMessage,
} from '@bytegate/contracts/unblocks';
import { zodResolver } from '@hookform/resolvers/zod';
import { LockOpenIcon, PlusIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { errorMessage } from '../../api/api-client.ts';
import { useChangeUnblocks } from '../../api/use-admin-payments.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { SegmentedControl } from '../../components/ui/segmented-control.tsx';
import { ReasonDialog } from './reason-dialog.tsx';
import { ReasonField } from './reason-field.tsx';

type Customer = CustomerDetailResponse['customer'];
type Unblocks = CustomerDetailResponse['unblocks'];

/**
 * What support opened for this customer beyond the gateway's defaults (what `bytegate unblock` does):
 * target ports and blocked-category domains, each closable; a change reaches the gateway within a second.
 */
export function UnblocksCard({ customer, unblocks }: { customer: Customer; unblocks: Unblocks }) {
  const change = useChangeUnblocks(customer.id);
  const close = async (kind: 'port' | 'host', value: number | string, reason: string) => {
    await change.mutateAsync({
      ports: kind === 'port' ? [value as number] : [],
      hosts: kind === 'host' ? [value as string] : [],
      remove: true,
      reason,
    });
    toast.success(kind === 'port' ? `Port ${value} closed` : `${value} blocked again`);
  };
  const isEmpty = unblocks.ports.length === 0 && unblocks.hosts.length === 0;
  return (
    <Card aria-labelledby="admin-unblocks-title">
      <CardHeader className="flex flex-row items-center justify-between gap-3">
        <CardTitle id="admin-unblocks-title">Unblocks</CardTitle>
        <OpenUnblockDialog customer={customer} />
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {isEmpty ? (
          <p className="text-gray-600">
            Nothing opened: the default ports and domain rules apply. Open a port (like 25 for mail) or a
            blocked domain when the customer has a good reason.
          </p>
        ) : null}
        {[
          { kind: 'port' as const, label: 'Ports', values: unblocks.ports.map(String) },
          { kind: 'host' as const, label: 'Domains', values: unblocks.hosts },
        ].map(({ kind, label, values }) =>
          values.length === 0 ? null : (
            <div key={kind} className="space-y-2">
              <h3 className="text-xs font-semibold tracking-wide text-gray-500 uppercase">{label}</h3>
              <ul className="flex flex-wrap gap-2" aria-label={`Unblocked ${label.toLowerCase()}`}>
                {values.map((value) => (
                  <li
                    key={value}
                    className="inline-flex max-w-full items-center gap-1 rounded-full border border-gray-200 bg-gray-50 py-0.5 pr-0.5 pl-3"
                  >
                    <code className="truncate font-mono text-xs text-gray-800">{value}</code>
                    <ReasonDialog
                      trigger={
                        <Button
                          variant="ghost"
                          size="icon"
                          className="size-7 rounded-full"
                          aria-label={kind === 'port' ? `Close port ${value}` : `Block ${value} again`}
                        >
                          <XIcon />
                        </Button>
                      }
                      title={kind === 'port' ? `Close port ${value}?` : `Block ${value} again?`}
                      description={`${customer.email} can no longer reach ${kind === 'port' ? `port ${value}` : `${value} and every name under it`} through the proxies, within a second.`}
                      confirmLabel={kind === 'port' ? 'Close port' : 'Block again'}
                      confirmVariant="danger"
                      failureMessage="The unblock could not be removed. Please try again."
                      onConfirm={(body) => close(kind, kind === 'port' ? Number(value) : value, body.reason)}
                    />
                  </li>
                ))}
              </ul>
            </div>
          ),
        )}
      </CardContent>
    </Card>
  );
}

const openSchema = z
  .object({ kind: z.enum(['port', 'host']), value: z.string().trim(), reason: reasonField })
  .superRefine((form, issues) => {
    const isValid =
      form.kind === 'port' ? parseUnblockPort(form.value) !== null : parseUnblockHost(form.value) !== null;
    if (!isValid) {
      issues.addIssue({
        code: 'custom',
        path: ['value'],
        message: form.kind === 'port' ? unblockPortMessage : unblockHostMessage,
      });
    }
  });
type OpenForm = z.input<typeof openSchema>;

/** Opens one port or domain for the customer, with a reason. */
function OpenUnblockDialog({ customer }: { customer: Customer }) {
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const change = useChangeUnblocks(customer.id);
  const form = useForm<OpenForm>({
    resolver: zodResolver(openSchema),
    defaultValues: { kind: 'port', value: '', reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const kind = form.watch('kind');
  const reason = form.watch('reason') ?? '';

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    const port = values.kind === 'port' ? parseUnblockPort(values.value) : null;
    const host = values.kind === 'host' ? parseUnblockHost(values.value) : null;
    try {
      await change.mutateAsync({
        ports: port === null ? [] : [port],
        hosts: host === null ? [] : [host],
        reason: values.reason,
      });
      setOpen(false);
      form.reset();
      toast.success(port === null ? `${host} opened` : `Port ${port} opened`);
    } catch (error) {
      setServerError(errorMessage(error, 'The unblock could not be saved. Please try again.'));
    }
  });

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) {
          form.reset();
          setServerError(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm">
          <PlusIcon aria-hidden="true" />
          Open
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Open a port or domain"
        description={`Only for ${customer.email}; the gateway applies it within a second. A domain covers every name under it.`}
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <Controller
            control={form.control}
            name="kind"
            render={({ field }) => (
              <SegmentedControl
                label="What to open"
                value={field.value}
                onValueChange={(next) => {
                  field.onChange(next);
                  form.clearErrors('value');
                }}
                options={[
                  { value: 'port', label: 'Port' },
                  { value: 'host', label: 'Domain' },
                ]}
                className="w-full"
              />
            )}
          />
          <FormField
            label={kind === 'port' ? 'Port' : 'Domain'}
            inputMode={kind === 'port' ? 'numeric' : 'url'}
            autoComplete="off"
            spellCheck={false}
            placeholder={kind === 'port' ? '25' : 'paypal.com'}
            error={errors.value?.message}
            {...form.register('value')}
          />
          <ReasonField length={reason.length} error={errors.reason?.message} {...form.register('reason')} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" isLoading={isSubmitting}>
              <LockOpenIcon aria-hidden="true" />
              Open {kind === 'port' ? 'port' : 'domain'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
