import { planPriceCents } from '@bytegate/contracts/billing';
import { MIN_PURCHASE_GB, PRICE_PER_GB_CENTS } from '@bytegate/contracts/constants';
import { formatUsd } from '@bytegate/contracts/money';
import { POOL_NAMES, POOL_TYPES, type PoolType } from '@bytegate/contracts/pools';
import { CheckIcon, CpuIcon, HomeIcon, SmartphoneIcon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
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
                isSelected && 'border-brand-500 ring-2 ring-brand-500/40',
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
              <Button
                className="mt-6 w-full"
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
  const [quantityText, setQuantityText] = useState(String(MIN_PURCHASE_GB));
  const [quantity, setQuantity] = useState(MIN_PURCHASE_GB);
  const [label, setLabel] = useState('');
  const totalId = useId();
  const total = planPriceCents(pool, quantity);

  // SPEC: the quantity is a whole number of at least 5 GB; smaller or invalid input is ignored.
  const onQuantityChange = (text: string) => {
    setQuantityText(text);
    const value = Number(text);
    if (/^\d+$/.test(text) && Number.isSafeInteger(value) && value >= MIN_PURCHASE_GB) {
      setQuantity(value);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await purchase.mutateAsync({
        label: label.trim() || undefined,
        pool_type: pool,
        default_pool_parameters: { quantity },
      });
      toast.success(`${POOL_NAMES[pool]} plan purchased: ${quantity} GB added`);
      onPurchased();
    } catch (error) {
      if (error instanceof ApiError && error.body.error === 'Insufficient balance') {
        const required = Number(error.body.required ?? 0);
        const current = Number(error.body.current ?? 0);
        toast.error('Insufficient Balance', {
          description: `This order needs $${required.toFixed(2)}; your balance is $${current.toFixed(2)}. Top up to continue.`,
        });
        return;
      }
      toast.error(errorMessage(error, 'Failed to purchase plan'));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Order {POOL_NAMES[pool]} traffic</CardTitle>
        <CardDescription>
          {formatUsd(PRICE_PER_GB_CENTS[pool])} per GB, at least {MIN_PURCHASE_GB} GB. Traffic never expires.
        </CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit}>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          <FormField
            label="Quantity (GB)"
            type="number"
            inputMode="numeric"
            min={MIN_PURCHASE_GB}
            step={1}
            value={quantityText}
            onChange={(event) => onQuantityChange(event.target.value)}
            aria-describedby={totalId}
          />
          <FormField
            label="Plan label"
            hint="(optional)"
            maxLength={100}
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
            {quantity} GB × {formatUsd(PRICE_PER_GB_CENTS[pool])} ={' '}
            <span className="text-lg font-semibold text-gray-900" data-testid="order-total">
              {formatUsd(total)}
            </span>
          </p>
        </CardContent>
        <CardFooter>
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            type="submit"
            isLoading={purchase.isPending}
            disabled={isVerificationPending}
            aria-describedby={isVerificationPending ? noticeId : undefined}
          >
            Purchase {formatUsd(total)}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
