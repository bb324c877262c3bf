// Notifications (issue 18): what a customer is told of, by email and by webhook. The `data` of each kind
// below is what the webhook sends (snake_case, like the public API); the email says the same in words.

/** The kinds a customer chooses among in User Settings. */
export const NOTIFICATION_KINDS = [
  'low_traffic',
  'low_balance',
  'topup_credited',
  'purchase_completed',
  'new_sign_in',
  'two_factor_changed',
  'auto_buy_completed',
  'auto_buy_failed',
] as const;
export type ChosenNotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** `test`: only the webhook's "Send test" button makes one. */
export type NotificationKind = ChosenNotificationKind | 'test';

/** What changed in an account's two-factor authentication. */
export type TwoFactorChange = 'enabled' | 'disabled' | 'recovery_codes_regenerated' | 'reset_by_staff';

/** How a sign-in's first factor was given. */
export type SignInMethod = 'password' | 'google';

/** Each kind's `data`. Money is in US dollars as numbers with cents (12.5), traffic in integer bytes. */
export interface NotificationData {
  low_traffic: {
    plan_id: string;
    pool_type: string;
    traffic_left_bytes: number;
    traffic_total_bytes: number;
    /** The alert's setting: GB left under `gb`, or `percent_used` of the traffic used. */
    threshold: { gb: number } | { percent_used: number };
  };
  low_balance: { balance_usd: number; threshold_usd: number };
  topup_credited: { order_id: string; credited_usd: number; balance_usd: number; provider: string };
  purchase_completed: {
    order_id: string;
    plan_id: string;
    pool_type: string;
    quantity_gb: number;
    amount_usd: number;
    balance_usd: number;
  };
  new_sign_in: { ip_address: string | null; user_agent: string | null; method: SignInMethod };
  two_factor_changed: { change: TwoFactorChange };
  auto_buy_completed: {
    order_id: string;
    plan_id: string;
    pool_type: string;
    quantity_gb: number;
    amount_usd: number;
    balance_usd: number;
  };
  auto_buy_failed: {
    plan_id: string;
    pool_type: string;
    quantity_gb: number;
    reason: 'insufficient_balance' | 'monthly_limit';
    amount_usd: number;
    balance_usd: number;
  };
  test: { message: string };
}
