import type { ActivityEntry, ActivityIcon } from '@bytegate/contracts/activity';
import {
  CircleXIcon,
  GaugeIcon,
  HeadsetIcon,
  KeyRoundIcon,
  LinkIcon,
  ListChecksIcon,
  LockKeyholeIcon,
  LogInIcon,
  LogOutIcon,
  type LucideIcon,
  MailIcon,
  ShieldCheckIcon,
  ShoppingCartIcon,
  SlidersHorizontalIcon,
  TriangleAlertIcon,
  UserIcon,
  UserPlusIcon,
  UsersIcon,
  WalletIcon,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '../../lib/cn.ts';
import { formatAgo, formatDateTime } from '../admin/format.ts';

/** Each icon hint of the contracts as a picture and its colours. */
const ICONS: Record<ActivityIcon, { icon: LucideIcon; tone: string }> = {
  'sign-in': { icon: LogInIcon, tone: 'bg-brand-50 text-brand-700' },
  'sign-out': { icon: LogOutIcon, tone: 'bg-gray-100 text-gray-600' },
  account: { icon: UserPlusIcon, tone: 'bg-brand-50 text-brand-700' },
  purchase: { icon: ShoppingCartIcon, tone: 'bg-emerald-50 text-emerald-700' },
  warning: { icon: TriangleAlertIcon, tone: 'bg-amber-50 text-amber-700' },
  topup: { icon: WalletIcon, tone: 'bg-emerald-50 text-emerald-700' },
  'topup-failed': { icon: CircleXIcon, tone: 'bg-red-50 text-red-700' },
  settings: { icon: SlidersHorizontalIcon, tone: 'bg-gray-100 text-gray-700' },
  allowlist: { icon: ListChecksIcon, tone: 'bg-gray-100 text-gray-700' },
  password: { icon: LockKeyholeIcon, tone: 'bg-amber-50 text-amber-700' },
  'proxy-user': { icon: UsersIcon, tone: 'bg-gray-100 text-gray-700' },
  threads: { icon: GaugeIcon, tone: 'bg-gray-100 text-gray-700' },
  key: { icon: KeyRoundIcon, tone: 'bg-amber-50 text-amber-700' },
  email: { icon: MailIcon, tone: 'bg-gray-100 text-gray-700' },
  shield: { icon: ShieldCheckIcon, tone: 'bg-amber-50 text-amber-700' },
  google: { icon: LinkIcon, tone: 'bg-gray-100 text-gray-700' },
  profile: { icon: UserIcon, tone: 'bg-gray-100 text-gray-700' },
  support: { icon: HeadsetIcon, tone: 'bg-sky-50 text-sky-700' },
};

/** The time now, moving on every minute, so that '5 minutes ago' stays true while a page is open. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/**
 * Entries of the activity feed, newest first: what happened, a line of detail, where from (browser and
 * address, for what a person did) and how long ago, the exact time on hover and for screen readers.
 */
export function ActivityList({
  entries,
  label,
  className,
}: {
  entries: ActivityEntry[];
  /** What the list is called for assistive technology ('Recent activity'). */
  label: string;
  className?: string;
}) {
  const now = useMinuteClock();
  return (
    <ol aria-label={label} className={cn('divide-y divide-gray-100', className)}>
      {entries.map((entry) => (
        <ActivityRow key={entry.id} entry={entry} now={now} />
      ))}
    </ol>
  );
}

function ActivityRow({ entry, now }: { entry: ActivityEntry; now: number }) {
  const { icon: Icon, tone } = ICONS[entry.icon] ?? ICONS.account;
  const origin = [entry.browser, entry.ipAddress].filter(Boolean).join(' · ');
  const exact = formatDateTime(entry.createdAt);
  return (
    <li className="flex gap-3 py-3">
      <span className={cn('mt-0.5 grid size-8 shrink-0 place-items-center rounded-full', tone)}>
        <Icon className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
          <p className="min-w-0 text-sm font-medium break-words text-gray-900">{entry.title}</p>
          <time dateTime={entry.createdAt} title={exact} className="shrink-0 text-xs text-gray-500">
            {/* A clock a little behind the server's still says 'just now', never 'in 5 seconds'. */}
            {formatAgo(entry.createdAt, Math.max(now, Date.parse(entry.createdAt)))}
            <span className="sr-only">, {exact}</span>
          </time>
        </div>
        {entry.detail ? <p className="mt-0.5 text-sm break-words text-gray-600">{entry.detail}</p> : null}
        {origin ? <p className="mt-0.5 text-xs break-words text-gray-500">{origin}</p> : null}
      </div>
    </li>
  );
}
