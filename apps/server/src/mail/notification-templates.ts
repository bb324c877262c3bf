import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import { formatUsdGrouped } from '@bytegate/contracts/money';
import type { NotificationData, NotificationKind } from '@bytegate/contracts/notifications';
import { POOL_NAMES, type PoolType } from '@bytegate/contracts/pools';
import { escapeHtml, htmlLayout, type MailContent, textLayout } from './templates.ts';

/**
 * The email of each notification kind: a subject that says it all, a sentence or two, and where to act
 * in the dashboard. Values come from the notification's data (the webhook's), escaped for HTML.
 */

export interface NotificationMailProps<K extends NotificationKind> {
  kind: K;
  data: NotificationData[K];
  /** The customer's first name. */
  name: string;
  publicUrl: string;
}

/** Traffic to two decimals, rounded down: "left" is never overstated (4.9989 GB left is 4.99, not 5). */
const gb = (bytes: number) =>
  `${(Math.floor((bytes / BYTES_PER_GB) * 100) / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })} GB`;
const usd = (dollars: number) => formatUsdGrouped(Math.round(dollars * 100));
const pool = (poolType: string) => POOL_NAMES[poolType as PoolType] ?? poolType;

/** One mail: a title, the sentences, and a call to act with its link. */
interface Parts {
  subject: string;
  title: string;
  lines: string[];
  action: { label: string; path: string } | null;
}

function partsOf<K extends NotificationKind>(kind: K, data: NotificationData[K]): Parts {
  switch (kind) {
    case 'low_traffic': {
      const d = data as NotificationData['low_traffic'];
      const left = gb(d.traffic_left_bytes);
      const when =
        'gb' in d.threshold
          ? `under the ${d.threshold.gb.toLocaleString('en-US')} GB you set`
          : `past the ${d.threshold.percent_used}% used you set`;
      return {
        subject: `${pool(d.pool_type)} traffic low: ${left} left`,
        title: 'Your traffic is running low',
        lines: [
          `Your ${pool(d.pool_type)} plan has ${left} of ${gb(d.traffic_total_bytes)} left, ${when}.`,
          'Add traffic before it runs out so your jobs keep running; an auto-buy can do it for you.',
        ],
        action: { label: 'Add traffic', path: '/dashboard' },
      };
    }
    case 'low_balance': {
      const d = data as NotificationData['low_balance'];
      return {
        subject: `Balance low: ${usd(d.balance_usd)}`,
        title: 'Your balance is low',
        lines: [
          `Your balance is ${usd(d.balance_usd)}, under the ${usd(d.threshold_usd)} you set.`,
          'Top up to keep buying traffic (auto-buys need the balance too).',
        ],
        action: { label: 'Top up', path: '/dashboard' },
      };
    }
    case 'topup_credited': {
      const d = data as NotificationData['topup_credited'];
      return {
        subject: `Top-up credited: ${usd(d.credited_usd)}`,
        title: 'Your top-up was credited',
        lines: [
          `${usd(d.credited_usd)} from order ${d.order_id} reached your balance, which is now ${usd(d.balance_usd)}.`,
        ],
        action: { label: 'See your orders', path: '/dashboard' },
      };
    }
    case 'purchase_completed': {
      const d = data as NotificationData['purchase_completed'];
      return {
        subject: `Purchase done: ${d.quantity_gb.toLocaleString('en-US')} GB of ${pool(d.pool_type)} traffic`,
        title: 'Your purchase is done',
        lines: [
          `You bought ${d.quantity_gb.toLocaleString('en-US')} GB of ${pool(d.pool_type)} traffic for ${usd(d.amount_usd)} (order ${d.order_id}). Your balance is now ${usd(d.balance_usd)}.`,
        ],
        action: { label: 'Open Proxy Setup', path: '/dashboard' },
      };
    }
    case 'new_sign_in': {
      const d = data as NotificationData['new_sign_in'];
      const how =
        d.method === 'google'
          ? 'with Google'
          : d.method === 'email_link'
            ? 'with a sign-in link emailed to you'
            : 'with your password';
      return {
        subject: 'New sign-in to your account',
        title: 'A new sign-in to your account',
        lines: [
          `Someone signed in to your account ${how} from ${d.ip_address ?? 'an unknown address'}, an address not seen on your account before${d.user_agent ? `, using ${d.user_agent}` : ''}.`,
          'If this was you, there is nothing to do. If not, change your password now and turn on two-factor authentication.',
        ],
        action: { label: 'Review your security', path: '/dashboard' },
      };
    }
    case 'two_factor_changed': {
      const d = data as NotificationData['two_factor_changed'];
      const what = {
        enabled: 'Two-factor authentication was turned on for your account.',
        disabled: 'Two-factor authentication was turned off for your account.',
        recovery_codes_regenerated:
          'New recovery codes were made for your account; the old ones no longer work.',
        reset_by_staff:
          'Our support team turned off two-factor authentication for your account, as asked. Turn it on again in User Settings.',
      }[d.change];
      return {
        subject: 'Two-factor authentication changed',
        title: 'Two-factor authentication changed',
        lines: [what, 'If this was not you, change your password now and contact support.'],
        action: { label: 'Open User Settings', path: '/dashboard' },
      };
    }
    case 'auto_buy_completed': {
      const d = data as NotificationData['auto_buy_completed'];
      return {
        subject: `Auto-buy: ${d.quantity_gb.toLocaleString('en-US')} GB of ${pool(d.pool_type)} traffic bought`,
        title: 'Auto-buy bought traffic',
        lines: [
          `Your auto-buy bought ${d.quantity_gb.toLocaleString('en-US')} GB of ${pool(d.pool_type)} traffic for ${usd(d.amount_usd)} (order ${d.order_id}). Your balance is now ${usd(d.balance_usd)}.`,
        ],
        action: { label: 'See your orders', path: '/dashboard' },
      };
    }
    case 'auto_buy_failed': {
      const d = data as NotificationData['auto_buy_failed'];
      const why =
        d.reason === 'insufficient_balance'
          ? `Your balance of ${usd(d.balance_usd)} does not cover ${usd(d.amount_usd)}. Top up, and the auto-buy will buy as soon as the balance covers it while the plan is still under its threshold.`
          : 'It has bought as many times this month as you allowed. Raise the limit or buy traffic yourself.';
      return {
        subject: `Auto-buy could not buy ${pool(d.pool_type)} traffic`,
        title: 'Auto-buy could not buy',
        lines: [
          `Your auto-buy of ${d.quantity_gb.toLocaleString('en-US')} GB of ${pool(d.pool_type)} traffic did not buy.`,
          why,
        ],
        action: {
          label: d.reason === 'insufficient_balance' ? 'Top up' : 'Open Proxy Setup',
          path: '/dashboard',
        },
      };
    }
    default: {
      const d = data as NotificationData['test'];
      return { subject: 'Test notification', title: 'Test notification', lines: [d.message], action: null };
    }
  }
}

export function notificationMail<K extends NotificationKind>(props: NotificationMailProps<K>): MailContent {
  const parts = partsOf(props.kind, props.data);
  const link = parts.action ? `${props.publicUrl}${parts.action.path}` : null;
  return {
    subject: parts.subject,
    text: textLayout([
      `Hello ${props.name},`,
      ...parts.lines,
      ...(parts.action && link ? [`${parts.action.label}: ${link}`] : []),
      'You get this email because of your notification settings (User Settings, Notifications).',
    ]),
    html: htmlLayout(parts.title, [
      `<p>Hello ${escapeHtml(props.name)},</p>`,
      ...parts.lines.map((line) => `<p>${escapeHtml(line)}</p>`),
      ...(parts.action && link
        ? [
            `<p><a href="${escapeHtml(link)}" style="color:#3730a3;font-weight:bold">${escapeHtml(parts.action.label)}</a></p>`,
          ]
        : []),
      '<p style="color:#555555;font-size:14px">You get this email because of your notification settings (User Settings, Notifications).</p>',
    ]),
    // Links into the dashboard only: they ask the reader to sign in, they never sign anyone in.
    secrets: [],
  };
}
