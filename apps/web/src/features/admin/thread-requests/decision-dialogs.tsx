import {
  type AdminThreadRequest,
  type ApproveThreadRequest,
  approveThreadRequestSchema,
  DECISION_MESSAGE_MAX_LENGTH,
  type DeclineThreadRequest,
  declineThreadRequestSchema,
  MAX_REQUESTED_THREADS,
  threadRequestMessages,
} from '@bytegate/contracts/thread-requests';
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckIcon, XIcon } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../../api/api-client.ts';
import { useApproveThreadRequest, useDeclineThreadRequest } from '../../../api/use-admin-thread-requests.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../../components/ui/dialog.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { TextareaField } from '../../thread-requests/textarea-field.tsx';
import { formatInteger } from '../format.ts';

/** Who and what a decision is about, for the dialogs' descriptions. */
function aboutRequest(request: AdminThreadRequest): string {
  const { customer, plan } = request;
  return `${customer.email} asked for ${formatInteger(request.requestedThreads)} threads on plan ${plan.login}, which allows ${formatInteger(plan.threadLimit)} now.`;
}

/**
 * What happened, when the server refused: a decision whose mail could not go (503) still stands, so
 * the dialog closes and staff are told the customer was not mailed; anything else stays in the dialog.
 */
function isDecidedWithoutMail(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'UPSTREAM_UNAVAILABLE';
}

interface DecisionDialogProps {
  request: AdminThreadRequest;
  /** Why the action is not available to this staff member (a staff account's plan is an admin's). */
  disabledReason?: string | undefined;
}

function DecisionDialog({
  trigger,
  title,
  description,
  isOpen,
  onOpenChange,
  children,
}: {
  trigger: ReactNode;
  title: string;
  description: string;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent
        title={title}
        description={description}
        className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto"
      >
        {children}
      </DialogContent>
    </Dialog>
  );
}

/** Approve: the plan's limit becomes the granted number at once; the customer is mailed. */
export function ApproveDialog({ request, disabledReason }: DecisionDialogProps) {
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const approve = useApproveThreadRequest();
  const defaultValues = { grantedThreads: request.requestedThreads, message: '' };
  const schema = approveThreadRequestSchema.refine(
    (values) => values.grantedThreads === undefined || values.grantedThreads > request.plan.threadLimit,
    { message: threadRequestMessages.grantedNotMore(request.plan.threadLimit), path: ['grantedThreads'] },
  );
  const form = useForm<ApproveThreadRequest>({ resolver: zodResolver(schema), defaultValues });
  const { errors, isSubmitting } = form.formState;
  const message = form.watch('message') ?? '';
  const granted = form.watch('grantedThreads');

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const { request: decided } = await approve.mutateAsync({
        ...values,
        requestId: request.id,
        userId: request.customer.id,
      });
      setOpen(false);
      toast.success(
        `Approved: ${decided.plan.login} now allows ${formatInteger(decided.plan.threadLimit)} threads`,
      );
    } catch (error) {
      if (isDecidedWithoutMail(error)) {
        setOpen(false);
        toast.warning(errorMessage(error, 'Approved, but the customer was not emailed.'));
        return;
      }
      setServerError(errorMessage(error, 'The request could not be approved. Please try again.'));
    }
  });

  return (
    <DecisionDialog
      isOpen={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) {
          form.reset(defaultValues);
          setServerError(null);
        }
      }}
      title="Approve thread request"
      description={aboutRequest(request)}
      trigger={
        <Button
          type="button"
          size="sm"
          disabled={disabledReason !== undefined}
          aria-label={`Approve the request of ${request.customer.email}`}
        >
          <CheckIcon aria-hidden="true" />
          Approve
        </Button>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {serverError ? <Alert tone="error">{serverError}</Alert> : null}
        <FormField
          label="Threads to grant"
          hint={`(they asked for ${formatInteger(request.requestedThreads)})`}
          type="number"
          inputMode="numeric"
          min={request.plan.threadLimit + 1}
          max={MAX_REQUESTED_THREADS}
          step={1}
          error={errors.grantedThreads?.message}
          {...form.register('grantedThreads', { valueAsNumber: true })}
        />
        <TextareaField
          label="Message to the customer"
          labelHint="(optional)"
          hint="Shown in their dashboard and emailed with the decision."
          rows={3}
          length={message.length}
          maxLength={DECISION_MESSAGE_MAX_LENGTH}
          error={errors.message?.message}
          {...form.register('message')}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" isLoading={isSubmitting}>
            {Number.isInteger(granted) ? `Approve ${formatInteger(granted ?? 0)} threads` : 'Approve'}
          </Button>
        </div>
      </form>
    </DecisionDialog>
  );
}

/** Decline: the limit stays; the customer reads why, in their dashboard and by mail. */
export function DeclineDialog({ request, disabledReason }: DecisionDialogProps) {
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const decline = useDeclineThreadRequest();
  const form = useForm<DeclineThreadRequest>({
    resolver: zodResolver(declineThreadRequestSchema),
    defaultValues: { message: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const message = form.watch('message') ?? '';

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await decline.mutateAsync({ ...values, requestId: request.id, userId: request.customer.id });
      setOpen(false);
      toast.success(`Declined; ${request.customer.email} was emailed the message`);
    } catch (error) {
      if (isDecidedWithoutMail(error)) {
        setOpen(false);
        toast.warning(errorMessage(error, 'Declined, but the customer was not emailed.'));
        return;
      }
      setServerError(errorMessage(error, 'The request could not be declined. Please try again.'));
    }
  });

  return (
    <DecisionDialog
      isOpen={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) {
          form.reset({ message: '' });
          setServerError(null);
        }
      }}
      title="Decline thread request"
      description={aboutRequest(request)}
      trigger={
        <Button
          type="button"
          size="sm"
          variant="secondary"
          disabled={disabledReason !== undefined}
          aria-label={`Decline the request of ${request.customer.email}`}
        >
          <XIcon aria-hidden="true" />
          Decline
        </Button>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {serverError ? <Alert tone="error">{serverError}</Alert> : null}
        <TextareaField
          label="Message to the customer"
          hint="Say why, and what would change the answer. Shown in their dashboard and emailed."
          length={message.length}
          maxLength={DECISION_MESSAGE_MAX_LENGTH}
          error={errors.message?.message}
          {...form.register('message')}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" variant="danger" isLoading={isSubmitting}>
            Decline request
          </Button>
        </div>
      </form>
    </DecisionDialog>
  );
}
