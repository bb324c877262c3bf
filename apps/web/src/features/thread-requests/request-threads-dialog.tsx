import type { Plan } from '@bytegate/contracts/billing';
import { POOL_NAMES } from '@bytegate/contracts/pools';
import {
  type CreateThreadRequest,
  MAX_REQUESTED_THREADS,
  PURPOSE_MAX_LENGTH,
  PURPOSE_MIN_LENGTH,
  requestMoreThreadsSchema,
  WEBSITE_MAX_LENGTH,
} from '@bytegate/contracts/thread-requests';
import { zodResolver } from '@hookform/resolvers/zod';
import { PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useCreateThreadRequest } from '../../api/use-thread-requests.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { TextareaField } from './textarea-field.tsx';

const FAILED = 'Failed to send the request. Please try again.';
const threads = (count: number) => count.toLocaleString('en-US');

interface RequestThreadsDialogProps {
  plan: Plan;
  /** Whether its button shows: not while a request waits. The dialog stays mounted to finish closing. */
  hasTrigger: boolean;
  /** Once the request is sent: focus moves to its status (the button is gone then). */
  onSent: () => void;
}

/**
 * "Request more threads": how many, what for, and optionally the company and its website; validated
 * with the server's own schema (and more than the plan's limit now) before anything is sent.
 */
export function RequestThreadsDialog({ plan, hasTrigger, onSent }: RequestThreadsDialogProps) {
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const create = useCreateThreadRequest();
  const defaultValues = { subUserId: plan.subUserId, purpose: '', company: '', website: '' };
  const form = useForm<CreateThreadRequest>({
    resolver: zodResolver(requestMoreThreadsSchema(plan.threads)),
    defaultValues,
  });
  const { errors, isSubmitting } = form.formState;
  const purpose = form.watch('purpose') ?? '';
  const poolName = POOL_NAMES[plan.poolType];

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const sent = await create.mutateAsync(values);
      setOpen(false);
      form.reset(defaultValues);
      onSent();
      toast.success('Request sent', {
        description: `You asked for ${threads(sent.requestedThreads)} threads. We'll email you when support answers.`,
      });
    } catch (error) {
      setServerError(errorMessage(error, FAILED));
    }
  });

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) {
          form.reset(defaultValues);
          setServerError(null);
        }
      }}
    >
      {hasTrigger ? (
        <DialogTrigger asChild>
          <Button type="button" size="sm" variant="secondary">
            <PlusIcon aria-hidden="true" />
            Request more threads
          </Button>
        </DialogTrigger>
      ) : null}
      <DialogContent
        title="Request more threads"
        description={`Your ${poolName} plan allows ${threads(plan.threads)} connections at once. Tell us how many you need and what for: support reviews every request and answers here and by email.`}
        className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto"
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <FormField
            label="Threads you need"
            type="number"
            inputMode="numeric"
            min={plan.threads + 1}
            max={MAX_REQUESTED_THREADS}
            step={1}
            hint={`(more than ${threads(plan.threads)}, up to ${threads(MAX_REQUESTED_THREADS)})`}
            error={errors.requestedThreads?.message}
            {...form.register('requestedThreads', { valueAsNumber: true })}
          />
          <TextareaField
            label="What are they for?"
            hint={`The sites or services, the kind of traffic and how much. At least ${PURPOSE_MIN_LENGTH} characters.`}
            length={purpose.length}
            maxLength={PURPOSE_MAX_LENGTH}
            error={errors.purpose?.message}
            {...form.register('purpose')}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              label="Company"
              hint="(optional)"
              autoComplete="organization"
              error={errors.company?.message}
              {...form.register('company')}
            />
            <FormField
              label="Website"
              hint="(optional)"
              type="url"
              inputMode="url"
              autoComplete="url"
              placeholder="https://example.com"
              maxLength={WEBSITE_MAX_LENGTH}
              error={errors.website?.message}
              {...form.register('website')}
            />
          </div>
          <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" isLoading={isSubmitting}>
              Send request
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
