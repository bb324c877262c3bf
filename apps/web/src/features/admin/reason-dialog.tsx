import { type ReasonRequest, reasonRequestSchema } from '@bytegate/contracts/admin';
import { zodResolver } from '@hookform/resolvers/zod';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/api-client.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button, type ButtonProps } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { ReasonField } from './reason-field.tsx';

interface ReasonDialogProps {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  confirmVariant?: ButtonProps['variant'];
  /** Does the action; a thrown error is shown in the dialog, which then stays open. */
  onConfirm: (body: ReasonRequest) => Promise<void>;
  failureMessage: string;
  /** What the action needs besides the reason (a weight, a state), above it; their state is the caller's. */
  children?: ReactNode;
  /** Checks `children` when the form is sent: false keeps the dialog open (they show their own errors). */
  validate?: () => boolean;
  /** Told when the dialog opens and closes, so the caller can start its fields afresh. */
  onOpenChange?: (isOpen: boolean) => void;
}

/**
 * A staff action confirmed in a dialog with the reason the audit log keeps: one that needs only the
 * reason (disable, enable, revoke sessions), or one with fields of its own (`children`, `validate`).
 */
export function ReasonDialog({
  trigger,
  title,
  description,
  confirmLabel,
  confirmVariant = 'primary',
  onConfirm,
  failureMessage,
  children,
  validate,
  onOpenChange,
}: ReasonDialogProps) {
  const [isOpen, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<ReasonRequest>({
    resolver: zodResolver(reasonRequestSchema),
    defaultValues: { reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const reason = form.watch('reason') ?? '';

  const submitReason = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await onConfirm(values);
      setOpen(false);
      form.reset();
    } catch (error) {
      setServerError(errorMessage(error, failureMessage));
    }
  });
  // The fields and the reason are checked together, so every error shows at once.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const areFieldsValid = validate?.() ?? true;
    if (!areFieldsValid) {
      event.preventDefault();
      void form.trigger('reason');
      return;
    }
    void submitReason(event);
  };

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        onOpenChange?.(open);
        if (!open) {
          form.reset();
          setServerError(null);
        }
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent title={title} description={description}>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          {children}
          <ReasonField length={reason.length} error={errors.reason?.message} {...form.register('reason')} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant={confirmVariant} isLoading={isSubmitting}>
              {confirmLabel}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
