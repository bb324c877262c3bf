import { PAYMENT_POLL_INTERVAL_MS, PAYMENT_POLL_TIMEOUT_MS } from '@bytegate/contracts/constants';
import { topupMessages } from '@bytegate/contracts/topup';
import { useQueryClient } from '@tanstack/react-query';
import { ExternalLinkIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { refreshMe } from '../../api/auth-session.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchTopupStatus, type OpenedCheckout, readTopupStatus } from '../../api/use-topup.ts';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { describeCheckoutStatus } from './checkout-status.ts';

const usd = (dollars: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(dollars);

/**
 * The checkout: the provider's payment page in a frame, and the order's status polled every 4 s for up
 * to 5 minutes (SPEC sections 4 and 9). Success refreshes the balance; success and failure close it.
 */
export function CheckoutDialog({ checkout, onDone }: { checkout: OpenedCheckout; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState('waiting');
  const doneRef = useRef(onDone);
  doneRef.current = onDone;
  const frameRef = useRef<HTMLIFrameElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);

  // The checkout page inside the frame may ask to close: its Back to Bytegate link or Close button, or
  // Escape pressed while the focus is in the frame (a key there never reaches this page).
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source === frameRef.current?.contentWindow && event.data === 'close') {
        doneRef.current();
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  useEffect(() => {
    let isActive = true;
    const startedAt = Date.now();
    const finish = () => {
      isActive = false;
      void queryClient.invalidateQueries({ queryKey: queryKeys.allOrders });
      doneRef.current();
    };
    const poll = async () => {
      if (!isActive) {
        return;
      }
      if (Date.now() - startedAt > PAYMENT_POLL_TIMEOUT_MS) {
        toast.info('Still waiting for the payment. Its order stays in Orders and updates when it is paid.');
        finish();
        return;
      }
      try {
        const answer = await fetchTopupStatus(checkout);
        if (!isActive) {
          return;
        }
        setStatus(answer.status.toLowerCase());
        const outcome = readTopupStatus(checkout.provider, answer.status);
        if (outcome === 'success') {
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: queryKeys.balance }),
            refreshMe().catch(() => undefined),
          ]);
          if (answer.credited > 0 && answer.credited < answer.amount) {
            // Paid short: what arrived was credited, and the customer must know it was not all.
            toast.success(topupMessages.partialCredited, {
              description: topupMessages.partialCreditedDetail(usd(answer.credited), usd(answer.amount)),
            });
          } else {
            toast.success(topupMessages.success);
          }
          finish();
          return;
        }
        if (outcome === 'failure') {
          toast.error(topupMessages.failure);
          finish();
          return;
        }
        if (answer.orderStatus === 'review') {
          // Paid short with no USD figure: a person decides; polling longer would change nothing.
          toast.info(topupMessages.underReview);
          finish();
          return;
        }
      } catch {
        // A failed poll is retried on the next tick.
      }
      timer = window.setTimeout(() => void poll(), PAYMENT_POLL_INTERVAL_MS);
    };
    let timer = window.setTimeout(() => void poll(), PAYMENT_POLL_INTERVAL_MS);
    return () => {
      isActive = false;
      window.clearTimeout(timer);
    };
  }, [checkout, queryClient]);

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) {
          onDone();
        }
      }}
    >
      <DialogContent
        className="max-w-2xl"
        // The dialog itself takes the focus, not the payment frame (the first focusable element): a key
        // pressed in a frame from another origin never reaches this page, so Escape would not close it.
        ref={contentRef}
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          contentRef.current?.focus();
        }}
        title={`Checkout · ${checkout.provider === 'cryptomus' ? 'Cryptomus' : 'Bitcart'}`}
        description={`Order ${checkout.orderId}. Complete the payment below; this window closes by itself when it is confirmed.`}
      >
        <div className="flex flex-col gap-3">
          <iframe
            ref={frameRef}
            title="Payment"
            src={checkout.checkoutUrl}
            className="h-[min(520px,60vh)] w-full rounded-lg border border-gray-200"
          />
          <div className="flex items-center justify-between gap-3 text-sm text-gray-600">
            <span className="inline-flex items-center gap-2" role="status">
              <Spinner /> {describeCheckoutStatus(status)}
            </span>
            <a
              href={checkout.checkoutUrl}
              target="_blank"
              rel="noreferrer"
              className="inline-flex items-center gap-1 text-brand-600 hover:text-brand-700"
            >
              Open in a new tab <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
            </a>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
