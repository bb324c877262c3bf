import type { AdminExit, ExitActionRequest } from '@bytegate/contracts/admin-exits';
import { exitActionRequestSchema } from '@bytegate/contracts/admin-exits';
import { zodResolver } from '@hookform/resolvers/zod';
import { MoreHorizontalIcon, PowerIcon, PowerOffIcon, RotateCcwIcon, Trash2Icon } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { ExitAction } from '../../../api/admin-exits-client.ts';
import { errorMessage } from '../../../api/api-client.ts';
import { useExitAction } from '../../../api/use-admin-exits.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog.tsx';
import { cn } from '../../../lib/cn.ts';
import { ReasonField } from '../reason-field.tsx';

interface ActionCopy {
  label: string;
  title: string;
  describe: (exit: AdminExit) => string;
  confirm: string;
  done: (exit: AdminExit) => string;
  variant: 'primary' | 'danger';
  icon: typeof PowerIcon;
}

const COPY: Record<ExitAction, ActionCopy> = {
  restore: {
    label: 'Put back into rotation',
    title: 'Put back into rotation',
    describe: (exit) =>
      `${exit.name} was taken out${exit.outOfRotationReason ? ` because: ${exit.outOfRotationReason}` : ''}. The gateway picks it again within a second; it leaves again after 3 new probe failures in a row.`,
    confirm: 'Put back',
    done: (exit) => `${exit.name} is back in rotation`,
    variant: 'primary',
    icon: RotateCcwIcon,
  },
  disable: {
    label: 'Disable',
    title: 'Disable exit',
    describe: (exit) =>
      `The gateway stops picking ${exit.name} within a second. Connections already through it carry on.`,
    confirm: 'Disable exit',
    done: (exit) => `${exit.name} is disabled`,
    variant: 'danger',
    icon: PowerOffIcon,
  },
  enable: {
    label: 'Enable',
    title: 'Enable exit',
    describe: (exit) => `The gateway starts picking ${exit.name} again within a second.`,
    confirm: 'Enable exit',
    done: (exit) => `${exit.name} is enabled`,
    variant: 'primary',
    icon: PowerIcon,
  },
  remove: {
    label: 'Remove',
    title: 'Remove exit',
    describe: (exit) =>
      `${exit.name} and its health history leave the inventory for good; the audit log keeps what it was.`,
    confirm: 'Remove exit',
    done: (exit) => `${exit.name} was removed`,
    variant: 'danger',
    icon: Trash2Icon,
  },
};

/** What an admin may do to the exit in the state it is in. */
function actionsFor(exit: AdminExit): ExitAction[] {
  const actions: ExitAction[] = [];
  if (exit.status === 'out_of_rotation') {
    actions.push('restore');
  }
  actions.push(exit.status === 'disabled' ? 'enable' : 'disable', 'remove');
  return actions;
}

/** A row's actions: a menu, each item confirmed in a dialog that asks for the reason the log keeps. */
export function ExitActions({ exit }: { exit: AdminExit }) {
  const [action, setAction] = useState<ExitAction | null>(null);
  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          aria-label={`Actions for ${exit.name}`}
          className={cn(buttonVariants({ variant: 'ghost', size: 'icon' }), 'data-[state=open]:bg-gray-100')}
        >
          <MoreHorizontalIcon aria-hidden="true" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={4}
            className="z-50 min-w-52 rounded-lg border border-gray-200 bg-white p-1 shadow-lg"
          >
            {actionsFor(exit).map((name) => {
              const { label, icon: Icon, variant } = COPY[name];
              return (
                <DropdownMenu.Item
                  key={name}
                  onSelect={() => setAction(name)}
                  className={cn(
                    'flex cursor-default items-center gap-2 rounded-md px-2.5 py-2 text-sm outline-none select-none data-[highlighted]:bg-gray-100',
                    variant === 'danger' ? 'text-red-700' : 'text-gray-900',
                  )}
                >
                  <Icon className="size-4" aria-hidden="true" />
                  {label}
                </DropdownMenu.Item>
              );
            })}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {action ? <ExitActionDialog exit={exit} action={action} onClose={() => setAction(null)} /> : null}
    </>
  );
}

function ExitActionDialog({
  exit,
  action,
  onClose,
}: {
  exit: AdminExit;
  action: ExitAction;
  onClose: () => void;
}) {
  const copy = COPY[action];
  const act = useExitAction();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<ExitActionRequest>({
    resolver: zodResolver(exitActionRequestSchema),
    defaultValues: { reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const reason = form.watch('reason') ?? '';
  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await act.mutateAsync({ exitId: exit.id, action, ...values });
      toast.success(copy.done(exit));
      onClose();
    } catch (error) {
      setServerError(errorMessage(error, 'The exit could not be changed. Please try again.'));
    }
  });
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent title={copy.title} description={copy.describe(exit)}>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <ReasonField length={reason.length} error={errors.reason?.message} {...form.register('reason')} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant={copy.variant} isLoading={isSubmitting}>
              {copy.confirm}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
