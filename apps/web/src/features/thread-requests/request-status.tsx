import type { ThreadRequest } from '@bytegate/contracts/thread-requests';
import { CheckCircle2Icon, ClockIcon, type LucideIcon, MinusCircleIcon, XCircleIcon } from 'lucide-react';
import { type Ref, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useCancelThreadRequest } from '../../api/use-thread-requests.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { cn } from '../../lib/cn.ts';
import { ThreadRequestStatusBadge } from './status-badge.tsx';

const threads = (count: number) => count.toLocaleString('en-US');
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const formatDay = (iso: string) => day.format(new Date(iso));

const LOOKS: Record<ThreadRequest['status'], { icon: LucideIcon; panel: string; iconClass: string }> = {
  pending: { icon: ClockIcon, panel: 'border-amber-200 bg-amber-50/60', iconClass: 'text-amber-600' },
  approved: {
    icon: CheckCircle2Icon,
    panel: 'border-emerald-200 bg-emerald-50/60',
    iconClass: 'text-emerald-600',
  },
  declined: { icon: XCircleIcon, panel: 'border-red-200 bg-red-50/60', iconClass: 'text-red-600' },
  cancelled: { icon: MinusCircleIcon, panel: 'border-gray-200 bg-gray-50', iconClass: 'text-gray-500' },
};

/** What happened to a request, in a sentence. */
export function requestSummary(request: ThreadRequest): string {
  const asked = `${threads(request.requestedThreads)} threads`;
  switch (request.status) {
    case 'pending':
      return `You asked for ${asked} on ${formatDay(request.createdAt)}. Support answers here and by email.`;
    case 'approved': {
      const granted = request.grantedThreads ?? request.requestedThreads;
      const differs = granted !== request.requestedThreads ? ` (you asked for ${asked})` : '';
      return `Approved on ${formatDay(request.decidedAt ?? request.createdAt)}: your limit was raised to ${threads(granted)} threads${differs}.`;
    }
    case 'declined':
      return `Declined on ${formatDay(request.decidedAt ?? request.createdAt)}: you asked for ${asked}. You can send a new request.`;
    case 'cancelled':
      return `You cancelled your request for ${asked} on ${formatDay(request.decidedAt ?? request.createdAt)}.`;
  }
}

/**
 * The plan's latest thread request: its status, support's answer, and (while it waits) a way to
 * withdraw it. It takes focus after a request is sent or cancelled, so a screen reader reads it out.
 */
export function LatestRequest({
  request,
  onCancelled,
  ref,
}: {
  request: ThreadRequest;
  onCancelled: () => void;
  ref?: Ref<HTMLElement>;
}) {
  const look = LOOKS[request.status];
  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby={`thread-request-${request.id}`}
      className={cn('space-y-3 rounded-lg border p-4 focus:outline-none', look.panel)}
    >
      <div className="flex items-start gap-3">
        <look.icon className={cn('mt-0.5 size-5 shrink-0', look.iconClass)} aria-hidden="true" />
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={`thread-request-${request.id}`} className="text-sm font-semibold text-gray-900">
              Your latest request
            </h3>
            <ThreadRequestStatusBadge status={request.status} />
          </div>
          <p className="text-sm text-gray-700" data-testid="thread-request-summary">
            {requestSummary(request)}
          </p>
        </div>
      </div>
      {request.decisionMessage ? <SupportAnswer message={request.decisionMessage} /> : null}
      {request.status === 'pending' ? (
        <CancelRequestDialog request={request} onCancelled={onCancelled} />
      ) : null}
    </section>
  );
}

/** Support's message to the customer, as they wrote it (line breaks kept). */
export function SupportAnswer({
  message,
  caption = 'Answer from support',
}: {
  message: string;
  caption?: string;
}) {
  return (
    <figure className="rounded-md border border-gray-200 bg-white px-3 py-2.5">
      <figcaption className="text-xs font-medium tracking-wide text-gray-500 uppercase">{caption}</figcaption>
      <blockquote className="mt-1 text-sm break-words whitespace-pre-line text-gray-900">
        {message}
      </blockquote>
    </figure>
  );
}

function CancelRequestDialog({ request, onCancelled }: { request: ThreadRequest; onCancelled: () => void }) {
  const cancel = useCancelThreadRequest();
  const [isOpen, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onConfirm = async () => {
    setError(null);
    try {
      await cancel.mutateAsync(request.id);
      setOpen(false);
      toast.success('Request cancelled');
      onCancelled();
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to cancel the request. Please try again.'));
    }
  };

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        setError(null);
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" variant="secondary" size="sm" className="ml-8">
          Cancel request
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Cancel this request?"
        description={`Support will not review your request for ${threads(request.requestedThreads)} threads. You can send a new one at any time.`}
      >
        {error ? (
          <Alert tone="error" className="mb-4">
            {error}
          </Alert>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Keep request
            </Button>
          </DialogClose>
          <Button
            type="button"
            variant="danger"
            isLoading={cancel.isPending}
            onClick={() => void onConfirm()}
          >
            Cancel request
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
