import { TOPUP_QUICK_AMOUNTS } from '@bytegate/contracts/constants';
import { topupAmountSchema, topupMessages } from '@bytegate/contracts/topup';
import { FlaskConicalIcon, ShieldCheckIcon, TimerIcon, ZapIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '../../api/api-client.ts';
import { useConfig } from '../../api/use-config.ts';
import { createTopupInvoice, type OpenedCheckout, type TopupProvider } from '../../api/use-topup.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { cn } from '../../lib/cn.ts';
import { useEmailVerification } from '../email-verification/use-email-verification.ts';
import { VerificationRequiredNotice } from '../email-verification/verification-required-notice.tsx';
import { BalanceCard } from './balance-card.tsx';
import { CheckoutDialog } from './checkout-dialog.tsx';

const infoCards = [
  {
    icon: ZapIcon,
    title: 'Credited automatically',
    text: 'Your balance updates as soon as the network confirms the payment.',
  },
  {
    icon: ShieldCheckIcon,
    title: 'Secure checkout',
    text: 'You pay on the provider’s page; we never see your wallet.',
  },
  {
    icon: TimerIcon,
    title: 'Invoices expire',
    text: 'Pay within the invoice’s time window, or start a new top-up.',
  },
];

/** The amount's problem, worded as SPEC section 5 says, or null when it can be paid. */
function amountProblem(text: string): string | null {
  if (text.trim() === '') {
    return topupMessages.invalidAmount;
  }
  const result = topupAmountSchema.safeParse(text);
  return result.success ? null : (result.error.issues[0]?.message ?? topupMessages.invalidAmount);
}

const providers: Array<{ id: TopupProvider; label: string }> = [
  { id: 'cryptomus', label: 'Cryptomus' },
  { id: 'bitcart', label: 'Bitcart' },
];

export function TopupSection() {
  const { data: config } = useConfig();
  // A provider the server does not run (no credentials, no sandbox allowed) cannot take payments.
  const isAvailable = (provider: TopupProvider) => config?.paymentProviders[provider] !== 'unavailable';
  const [amount, setAmount] = useState('');
  const [isTouched, setTouched] = useState(false);
  const [pending, setPending] = useState<TopupProvider | null>(null);
  const [checkout, setCheckout] = useState<OpenedCheckout | null>(null);
  const { isPending: isVerificationPending } = useEmailVerification();
  const noticeId = useId();
  const amountId = useId();
  const problem = amountProblem(amount);
  // Said as soon as it is typed (why the buttons are disabled); an empty field once it was used.
  const shownProblem = amount !== '' || isTouched ? (problem ?? undefined) : undefined;
  const problemId = shownProblem ? `${amountId}-error` : undefined;
  // Empty, not a number or under $5.00 is a problem (SPEC section 5): the buttons wait for an amount.
  const isPayDisabled = problem !== null || pending !== null || checkout !== null || isVerificationPending;

  const pay = async (provider: TopupProvider) => {
    setTouched(true);
    if (problem) {
      return;
    }
    setPending(provider);
    try {
      setCheckout(await createTopupInvoice(provider, amount));
    } catch (error) {
      // A refusal that says what to do is shown as it is; any other failure in the spec's words.
      toast.error(
        error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED'
          ? error.message
          : topupMessages.failed,
      );
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="space-y-6">
      <BalanceCard />
      {config?.paymentsSandbox ? (
        <Alert tone="warning" className="flex items-start gap-3">
          <FlaskConicalIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            <strong>Test mode.</strong> Payments go to built-in sandbox checkouts: no real money moves, and
            you choose how each payment ends.
          </span>
        </Alert>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>Add funds</CardTitle>
          <CardDescription>Minimum $5.00. Pay with cryptocurrency through either provider.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          <div className="max-w-xs">
            <FormField
              label="Amount (USD)"
              inputMode="decimal"
              autoComplete="off"
              placeholder="25.00"
              value={amount}
              id={amountId}
              error={shownProblem}
              onBlur={() => setTouched(true)}
              onChange={(event) => {
                // Digits with an optional decimal point only (SPEC section 5).
                if (/^\d*\.?\d*$/.test(event.target.value)) {
                  setAmount(event.target.value);
                  setTouched(true);
                }
              }}
            />
          </div>
          <fieldset>
            <legend className="mb-2 text-sm font-medium text-gray-800">Quick amounts</legend>
            <div className="flex flex-wrap gap-2">
              {TOPUP_QUICK_AMOUNTS.map((quick) => (
                <Button
                  key={quick}
                  type="button"
                  size="sm"
                  variant="secondary"
                  aria-pressed={amount === String(quick)}
                  className={cn(amount === String(quick) && 'border-brand-500 bg-brand-50 text-brand-700')}
                  onClick={() => {
                    setAmount(String(quick));
                    setTouched(true);
                  }}
                >
                  ${quick}
                </Button>
              ))}
            </div>
          </fieldset>
          {isVerificationPending ? (
            <VerificationRequiredNotice id={noticeId} action="top up your balance" />
          ) : null}
          <div className="flex flex-col gap-3 sm:flex-row">
            {providers.map((provider) => (
              <Button
                key={provider.id}
                size="lg"
                variant={provider.id === 'cryptomus' ? 'primary' : 'secondary'}
                disabled={isPayDisabled || !isAvailable(provider.id)}
                aria-describedby={
                  isVerificationPending
                    ? noticeId
                    : isAvailable(provider.id)
                      ? problemId
                      : `${provider.id}-unavailable`
                }
                isLoading={pending === provider.id}
                onClick={() => void pay(provider.id)}
              >
                Pay with {provider.label}
              </Button>
            ))}
          </div>
          {providers
            .filter((provider) => !isAvailable(provider.id))
            .map((provider) => (
              <p key={provider.id} id={`${provider.id}-unavailable`} className="text-sm text-gray-600">
                {topupMessages.providerUnavailable(provider.label)}
              </p>
            ))}
        </CardContent>
      </Card>
      <div className="grid gap-4 md:grid-cols-3">
        {infoCards.map((card) => (
          <Card key={card.title} className="p-5">
            <card.icon className="size-5 text-brand-600" aria-hidden="true" />
            <h3 className="mt-3 text-sm font-semibold text-gray-900">{card.title}</h3>
            <p className="mt-1 text-sm text-gray-600">{card.text}</p>
          </Card>
        ))}
      </div>
      {checkout ? (
        <CheckoutDialog
          checkout={checkout}
          onDone={() => {
            setCheckout(null);
            setAmount('');
            setTouched(false);
          }}
        />
      ) : null}
    </div>
  );
}
