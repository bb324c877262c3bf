import type { Payment } from '@bytegate/contracts/admin-payments';
import { RefreshCwIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../../api/api-client.ts';
import { useCheckTopup } from '../../../api/use-admin-payments.ts';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { describeCheck, PROVIDER_LABELS } from './payment-labels.ts';

/** Whether a provider can be asked about the payment: a top-up with an invoice at one. */
export function isCheckable(payment: Payment): boolean {
  return payment.kind === 'topup' && payment.provider !== 'balance' && payment.invoiceId !== null;
}

/**
 * "Check with provider": asks the provider about the invoice now and applies its answer as the
 * reconcile job does; what it said stays written under the button (and in a toast).
 */
export function CheckButton({ payment, className }: { payment: Payment; className?: string }) {
  const check = useCheckTopup(payment.userId);
  const [said, setSaid] = useState<{ text: string; isError: boolean } | null>(null);
  const provider = PROVIDER_LABELS[payment.provider];
  const onCheck = async () => {
    setSaid(null);
    try {
      const answer = await check.mutateAsync(payment.orderId);
      const text = describeCheck(provider, answer);
      setSaid({ text, isError: false });
      toast.success(`${payment.orderId}: ${text}`);
    } catch (error) {
      setSaid({
        text: errorMessage(error, `${provider} could not be asked. Please try again.`),
        isError: true,
      });
    }
  };
  return (
    <div className={cn('space-y-1.5', className)}>
      <Button
        type="button"
        variant="secondary"
        size="sm"
        isLoading={check.isPending}
        onClick={() => void onCheck()}
        aria-label={`Check with provider: ${payment.orderId} at ${provider}`}
      >
        {check.isPending ? null : <RefreshCwIcon aria-hidden="true" />}
        Check with provider
      </Button>
      <p
        role="status"
        className={cn('max-w-80 text-xs whitespace-normal', said?.isError ? 'text-red-700' : 'text-gray-600')}
      >
        {said?.text ?? ''}
      </p>
    </div>
  );
}
