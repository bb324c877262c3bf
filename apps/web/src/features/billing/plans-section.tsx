import { planPriceCents, purchaseQuantitySchema } from '@bytegate/contracts/billing';
import {
  MAX_PURCHASE_GB,
  MIN_PURCHASE_GB,
  PLAN_LABEL_MAX_LENGTH,
  PRICE_PER_GB_CENTS,
} from '@bytegate/contracts/constants';
import { formatUsd, formatUsdGrouped } from '@bytegate/contracts/money';
import { POOL_NAMES, POOL_TYPES, type PoolType } from '@bytegate/contracts/pools';
import { CheckIcon, CpuIcon, HomeIcon, SmartphoneIcon } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../api/api-client.ts';
import { usePurchasePlan } from '../../api/use-plans.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { cn } from '../../lib/cn.ts';
import { useEmailVerification } from '../email-verification/use-email-verification.ts';
import { VerificationRequiredNotice } from '../email-verification/verification-required-notice.tsx';
import { BalanceCard } from './balance-card.tsx';

const pools: Record<PoolType, { icon: typeof CpuIcon; points: string[] }> = {
  datacenter: {
    icon: CpuIcon,
    points: ['Fastest response times', 'Multiple regions', 'Rotating and sticky sessions'],
  },
  residential: {
    icon: HomeIcon,
    points: [
      'Real household IPs in 195 countries',
      'State, city, ZIP and ASN targeting',
      'Rotating and sticky sessions',
    ],
  },
  mobile: {
    icon: SmartphoneIcon,
    points: ['5G, 4G, 3G and LTE carriers', 'Highest trust scores', 'Rotating and sticky sessions'],
  },
};

/** Plans & Pricing: the balance, three plan cards, and the order form of the chosen one. */
export function PlansSection({
  onNavigate,
}: {
  onNavigate: (id: 'topup' | 'proxy-settings', options?: { pool?: PoolType }) => void;
}) {
  const [selected, setSelected] = useState<PoolType | null>(null);
  return (
    <div className="space-y-6">
      <BalanceCard action={<Button onClick={() => onNavigate('topup')}>Top Up Balance</Button>} />
      <div className="grid gap-4 md:grid-cols-3">
        {POOL_TYPES.map((pool) => {
          const { icon: Icon, points } = pools[pool];
          const name = POOL_NAMES[pool];
          const isSelected = selected === pool;
          return (
            <Card
              key={pool}
              className={cn(
                'relative flex flex-col p-6',
                isSelected ? 'border-brand-500 ring-2 ring-brand-500/40' : 'hover:border-brand-300',
              )}
            >
              {pool === 'residential' ? (
                <Badge tone="brand" className="absolute -top-2.5 left-6">
                  Most Popular
                </Badge>
              ) : null}
              <Icon className="size-6 text-brand-600" aria-hidden="true" />
              <h2 className="mt-3 font-semibold text-gray-900">{name}</h2>
              <p className="mt-2">
                <span className="text-3xl font-semibold">{formatUsd(PRICE_PER_GB_CENTS[pool])}</span>
                <span className="text-gray-500"> / GB</span>
              </p>
              <ul className="mt-4 flex-1 space-y-2 text-sm text-gray-600">
                {points.map((point) => (
                  <li key={point} className="flex gap-2">
                    <CheckIcon className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                    {point}
                  </li>
                ))}
              </ul>
              {/* The button stretches over the card (its ::after), so a click anywhere on the card,
                  its title included, chooses it; keyboard and screen-reader users meet one control. */}
              <Button
                className="mt-6 w-full after:absolute after:inset-0 after:rounded-xl after:content-['']"
                variant={isSelected ? 'primary' : 'secondary'}
                aria-pressed={isSelected}
                onClick={() => setSelected(pool)}
              >
                {isSelected ? 'Selected' : `Choose ${name}`}
              </Button>
            </Card>
          );
        })}
      </div>
      {selected ? (
        <OrderForm
          key={selected}
          pool={selected}
          onCancel={() => setSelected(null)}
          onPurchased={() => onNavigate('proxy-settings', { pool: selected })}
        />
      ) : null}
    </div>
  );
}

/** The quantity's problem as typed, in the contract's words, or null when it can be bought. */
function quantityProblem(text: string): string | null {
  const trimmed = text.trim();
  const result = purchaseQuantitySchema.safeParse(trimmed === '' ? Number.NaN : Number(trimmed));
  return result.success ? null : (result.error.issues[0]?.message ?? 'Quantity must be a whole number of GB');
}

function OrderForm({
  pool,
  onCancel,
  onPurchased,
}: {
  pool: PoolType;
  onCancel: () => void;
  onPurchased: () => void;
}) {
  const purchase = usePurchasePlan();
  const { isPending: isVerificationPending } = useEmailVerification();
  const noticeId = useId();
  const titleId = useId();
  const limitsId = useId();
  const totalId = useId();
  const cardRef = useRef<HTMLElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const [quantityText, setQuantityText] = useState(String(MIN_PURCHASE_GB));
  const [label, setLabel] = useState('');
  // SPEC: a whole number of at least 5 GB. Checked as it is typed; an invalid quantity has no total.
  const problem = quantityProblem(quantityText);
  const quantity = problem === null ? Number(quantityText.trim()) : null;
  const total = quantity === null ? null : planPriceCents(pool, quantity);

  // Chosen below three tall cards (on a phone, far below): bring the form into view and take the focus
  // to its title, so the next Tab reaches the quantity and a screen reader says what opened.
  useEffect(() => {
    const isReduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    cardRef.current?.scrollIntoView({ behavior: isReduced ? 'auto' : 'smooth', block: 'start' });
    titleRef.current?.focus({ preventScroll: true });
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (quantity === null) {
      return;
    }
    try {
      await purchase.mutateAsync({
        label: label.trim() || undefined,
        pool_type: pool,
        default_pool_parameters: { quantity },
      });
      toast.success(`${POOL_NAMES[pool]} plan purchased: ${quantity.toLocaleString('en-US')} GB added`);
      onPurchased();
    } catch (error) {
      if (error instanceof ApiError && error.body.error === 'Insufficient balance') {
        const required = Number(error.body.required ?? 0);
        const current = Number(error.body.current ?? 0);
        toast.error('Insufficient Balance', {
          description: `This order needs ${formatUsdGrouped(Math.round(required * 100))}; your balance is ${formatUsdGrouped(Math.round(current * 100))}. Top up to continue.`,
        });
        return;
      }
      toast.error(errorMessage(error, 'Failed to purchase plan'));
    }
  };

  return (
    <Card ref={cardRef} aria-labelledby={titleId} className="scroll-mt-20">
      <CardHeader>
        <CardTitle id={titleId} ref={titleRef} tabIndex={-1} className="focus:outline-none">
          Order {POOL_NAMES[pool]} traffic
        </CardTitle>
        <CardDescription>
          {formatUsd(PRICE_PER_GB_CENTS[pool])} per GB, at least {MIN_PURCHASE_GB} GB. Traffic never expires.
        </CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          <div className="space-y-1.5">
            <FormField
              label="Quantity (GB)"
              type="number"
              inputMode="numeric"
              min={MIN_PURCHASE_GB}
              max={MAX_PURCHASE_GB}
              step={1}
              value={quantityText}
              error={problem ?? undefined}
              onChange={(event) => setQuantityText(event.target.value)}
              aria-describedby={`${limitsId} ${totalId}`}
            />
            <p id={limitsId} className="text-sm text-gray-500">
              Whole GB, from {MIN_PURCHASE_GB} to {MAX_PURCHASE_GB.toLocaleString('en-US')}.
            </p>
          </div>
          <FormField
            label="Plan label"
            hint="(optional)"
            maxLength={PLAN_LABEL_MAX_LENGTH}
            placeholder={`${POOL_NAMES[pool]} plan`}
            value={label}
            onChange={(event) => setLabel(event.target.value)}
          />
          {isVerificationPending ? (
            <div className="sm:col-span-2">
              <VerificationRequiredNotice id={noticeId} action="buy traffic" />
            </div>
          ) : null}
          <p id={totalId} className="text-sm text-gray-600 sm:col-span-2" aria-live="polite">
            {quantity === null || total === null ? (
              'Enter a valid quantity to see the total.'
            ) : (
              <>
                {quantity.toLocaleString('en-US')} GB × {formatUsd(PRICE_PER_GB_CENTS[pool])} ={' '}
                <span className="text-lg font-semibold text-gray-900" data-testid="order-total">
                  {formatUsdGrouped(total)}
                </span>
              </>
            )}
          </p>
        </CardContent>
        <CardFooter>
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            type="submit"
            isLoading={purchase.isPending}
            disabled={isVerificationPending || total === null}
            aria-describedby={isVerificationPending ? noticeId : undefined}
          >
            {total === null ? 'Purchase' : `Purchase ${formatUsdGrouped(total)}`}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
