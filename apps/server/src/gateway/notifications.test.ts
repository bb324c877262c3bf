import type { PlanAutomation } from '@bytegate/contracts/notifications';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../mail/mailer.ts';
import { createRecordingLog } from '../mail/testing/recording-log.ts';
import { type SmtpSink, startSmtpSink } from '../mail/testing/smtp-sink.ts';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import type { MailContext } from '../services/context.ts';
import { checkAlerts } from '../services/notifications/check-alerts.ts';
import { dispatchNotifications } from '../services/notifications/dispatch-notifications.ts';
import { runAutoBuys } from '../services/notifications/run-auto-buys.ts';
import {
  buyDatacenterPlan,
  fetchThroughGateway,
  type GatewayFixture,
  startGatewayFixture,
  within,
} from '../testing/gateway-fixture.ts';
import { queryRows } from '../testing/test-server.ts';

// Alerts and auto-buy driven by real traffic through the gateway over the database (issue 18): a
// low-traffic alert fires once when usage flushes carry a plan across its threshold, however many
// flushes and passes follow; an auto-buy buys once under racing flushes and passes, tells a short
// balance once, then buys when it is covered; the month's limit holds.

describe.each(testDatabaseKinds())('alerts and auto-buy through the gateway, on %s', (kind) => {
  let fixture: GatewayFixture;
  let smtp: SmtpSink;
  let ctx: MailContext;
  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
    smtp = await startSmtpSink();
    fixture.server.config.mail.smtpUrl = `smtp://127.0.0.1:${smtp.port}`;
    ctx = {
      db: fixture.server.database.db,
      config: fixture.server.config,
      mailer: createMailer(fixture.server.config, createRecordingLog()),
    };
  });
  afterAll(async () => {
    await fixture?.close();
    await smtp?.close();
  });

  /** Traffic through the gateway with the plan's credentials, flushed to the database. */
  async function download(customer: { login: string; password: string }, bytes: number): Promise<void> {
    // A plan bought a moment ago reaches the gateway within its refresh (a second).
    await within(3000, async () => {
      const probe = await fetchThroughGateway(fixture, `${customer.login}:${customer.password}`, '/?bytes=1');
      return probe.status === 'HTTP/1.1 200 OK';
    });
    const answer = await fetchThroughGateway(
      fixture,
      `${customer.login}:${customer.password}`,
      `/?bytes=${bytes}`,
    );
    expect(answer.status).toBe('HTTP/1.1 200 OK');
    expect(answer.body.length).toBe(bytes);
    await fixture.gateway.flush();
  }

  const notificationsOf = (email: string, kind: string) =>
    queryRows<{ payload: Record<string, unknown> }>(
      fixture.server,
      `select payload from notifications where kind = '${kind}'
         and user_id = (select id from users where email = '${email}') order by created_at`,
    );

  const automation = (token: string, planId: string) =>
    fixture.server.request<PlanAutomation>('GET', `/api/plans/${planId}/automation`, { token });

  it('fires a low-traffic alert once when gateway traffic crosses it, and re-arms it after a purchase', async () => {
    const customer = await buyDatacenterPlan(fixture.server);
    const set = await fixture.server.request<PlanAutomation>(
      'PUT',
      `/api/plans/${customer.planId}/low-traffic-alert`,
      {
        token: customer.token,
        body: { thresholdGb: 4.999 },
      },
    );
    expect(set.status).toBe(200);
    expect(set.body.lowTraffic).toEqual({ thresholdGb: 4.999, thresholdPercent: null, isTriggered: false });
    expect((await checkAlerts(ctx)).lowTraffic).toBe(0);
    // 4.999 GB is 1,073,742 bytes under the 5 GB bought: 2 MB of traffic crosses it.
    await download(customer, 2_000_000);
    const passes = await Promise.all([checkAlerts(ctx), checkAlerts(ctx), checkAlerts(ctx)]);
    expect(passes.map((pass) => pass.lowTraffic).reduce((a, b) => a + b, 0)).toBe(1);
    // More traffic and more passes: still the one alert.
    await download(customer, 500_000);
    await checkAlerts(ctx);
    await download(customer, 500_000);
    await checkAlerts(ctx);
    const alerts = await notificationsOf(customer.email, 'low_traffic');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.payload).toMatchObject({
      plan_id: customer.planId,
      pool_type: 'datacenter',
      traffic_total_bytes: 5 * 1024 ** 3,
      threshold: { gb: 4.999 },
    });
    expect(Number(alerts[0]?.payload.traffic_left_bytes)).toBeLessThan(4.999 * 1024 ** 3);
    expect((await automation(customer.token, customer.planId)).body.lowTraffic?.isTriggered).toBe(true);
    // The customer is mailed it.
    await dispatchNotifications(ctx);
    const mail = smtp.received.find(
      (one) => one.rcptTo.includes(customer.email) && /traffic low/.test(one.parsed.subject ?? ''),
    );
    expect(mail?.parsed.subject).toMatch(/^Datacenter traffic low: 4\.99 GB left$/);
    // A purchase lifts the plan above: the alert is armed again for the next crossing.
    await adjustBalance(ctx, { email: customer.email, amountCents: 5_00, reason: 'test credit' });
    await fixture.server.request('POST', '/api/subuser/create', {
      token: customer.token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
    });
    await checkAlerts(ctx);
    expect((await automation(customer.token, customer.planId)).body.lowTraffic?.isTriggered).toBe(false);
    expect(await notificationsOf(customer.email, 'low_traffic')).toHaveLength(1);
  });

  it('fires a low-balance alert once per crossing', async () => {
    const customer = await buyDatacenterPlan(fixture.server);
    // $10.00 credited, $4.95 spent: $5.05 left, over a $5.00 threshold.
    await fixture.server.request('PUT', '/api/notifications/settings', {
      token: customer.token,
      body: { lowBalanceThresholdUsd: 5 },
    });
    await checkAlerts(ctx);
    expect(await notificationsOf(customer.email, 'low_balance')).toHaveLength(0);
    await fixture.server.request('POST', '/api/subuser/create', {
      token: customer.token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
    });
    await checkAlerts(ctx);
    await checkAlerts(ctx);
    expect((await notificationsOf(customer.email, 'low_balance')).map((row) => row.payload)).toEqual([
      { balance_usd: 0.1, threshold_usd: 5 },
    ]);
    // Back above, then under again: a second crossing, a second alert.
    await adjustBalance(ctx, { email: customer.email, amountCents: 10_00, reason: 'test credit' });
    await checkAlerts(ctx);
    await fixture.server.request('POST', '/api/subuser/create', {
      token: customer.token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 10 } },
    });
    await checkAlerts(ctx);
    expect(await notificationsOf(customer.email, 'low_balance')).toHaveLength(2);
  });

  it('buys once under racing usage flushes and auto-buy passes, records a normal order and mails it', async () => {
    const customer = await buyDatacenterPlan(fixture.server);
    await adjustBalance(ctx, { email: customer.email, amountCents: 20_00, reason: 'test credit' });
    const set = await fixture.server.request<PlanAutomation>(
      'PUT',
      `/api/plans/${customer.planId}/auto-buy`,
      {
        token: customer.token,
        body: { thresholdGb: 4.999, quantityGb: 5, maxPerMonth: 3 },
      },
    );
    expect(set.status).toBe(200);
    expect(set.body.autoBuy).toMatchObject({ status: 'armed', boughtThisMonth: 0, lastRun: null });
    expect(await runAutoBuys(ctx)).toEqual([]);
    // Traffic crosses the threshold while flushes and passes race each other.
    const traffic = (async () => {
      for (let i = 0; i < 6; i++) {
        await download(customer, 400_000);
      }
    })();
    const passes = (async () => {
      const actions: string[] = [];
      for (let i = 0; i < 12; i++) {
        const round = await Promise.all([
          runAutoBuys(ctx),
          runAutoBuys(ctx),
          fixture.gateway.flush().then(() => []),
        ]);
        actions.push(...round.flat());
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return actions;
    })();
    const [, actions] = await Promise.all([traffic, passes]);
    actions.push(...(await runAutoBuys(ctx)), ...(await runAutoBuys(ctx)));
    expect(actions.filter((action) => action === 'bought')).toHaveLength(1);
    const orders = await queryRows<{ count: number }>(
      fixture.server,
      `select count(*)::int as count from orders where kind = 'purchase'
         and user_id = (select id from users where email = '${customer.email}')`,
    );
    expect(orders[0]?.count).toBe(2);
    const [account] = await queryRows<{ balance: number; ledger: number }>(
      fixture.server,
      `select u.balance_cents::int as balance, (select sum(amount_cents)::int from ledger_entries l where l.user_id = u.id) as ledger
         from users u where email = '${customer.email}'`,
    );
    // $10.00 + $20.00 credited, two purchases of $4.95: the ledger says the same.
    expect(account).toEqual({ balance: 20_10, ledger: 20_10 });
    const after = (await automation(customer.token, customer.planId)).body.autoBuy;
    // The purchase lifted the plan above its threshold: armed again for the next crossing.
    expect(after).toMatchObject({ status: 'armed', boughtThisMonth: 1, lastRun: { outcome: 'bought' } });
    expect(after?.lastRun?.orderId).toMatch(/^BG-\d+$/);
    const told = await notificationsOf(customer.email, 'auto_buy_completed');
    expect(told.map((row) => row.payload)).toEqual([
      expect.objectContaining({
        quantity_gb: 5,
        amount_usd: 4.95,
        balance_usd: 20.1,
        order_id: after?.lastRun?.orderId,
      }),
    ]);
    // The auto-buy is told as such, not also as a purchase.
    expect(await notificationsOf(customer.email, 'purchase_completed')).toHaveLength(1);
    await dispatchNotifications(ctx);
    const mail = smtp.received.find(
      (one) => one.rcptTo.includes(customer.email) && /^Auto-buy/.test(one.parsed.subject ?? ''),
    );
    expect(mail?.parsed.subject).toBe('Auto-buy: 5 GB of Datacenter traffic bought');
  });

  it('tells a short balance once, buys when a top-up covers it, and holds to the month’s limit', async () => {
    const customer = await buyDatacenterPlan(fixture.server);
    // $5.05 left; 10 GB costs $9.90.
    await fixture.server.request('PUT', `/api/plans/${customer.planId}/auto-buy`, {
      token: customer.token,
      body: { thresholdGb: 4.999, quantityGb: 10, maxPerMonth: 1 },
    });
    await download(customer, 2_000_000);
    expect(await runAutoBuys(ctx)).toEqual(['insufficient_balance']);
    expect(await runAutoBuys(ctx)).toEqual(['none']);
    expect(await runAutoBuys(ctx)).toEqual(['none']);
    const failed = await notificationsOf(customer.email, 'auto_buy_failed');
    expect(failed.map((row) => row.payload)).toEqual([
      expect.objectContaining({
        reason: 'insufficient_balance',
        amount_usd: 9.9,
        balance_usd: 5.05,
        quantity_gb: 10,
      }),
    ]);
    expect((await automation(customer.token, customer.planId)).body.autoBuy?.status).toBe(
      'insufficient_balance',
    );
    await adjustBalance(ctx, { email: customer.email, amountCents: 5_00, reason: 'top-up' });
    expect(await runAutoBuys(ctx)).toEqual(['bought']);
    // The month's one purchase is made: a rule set so that the plan is under it again is held there.
    await fixture.server.request('PUT', `/api/plans/${customer.planId}/auto-buy`, {
      token: customer.token,
      body: { thresholdGb: 50, quantityGb: 5, maxPerMonth: 1 },
    });
    expect(await runAutoBuys(ctx)).toEqual(['monthly_limit']);
    expect(await runAutoBuys(ctx)).toEqual(['none']);
    const told = await notificationsOf(customer.email, 'auto_buy_failed');
    expect(told.map((row) => row.payload.reason)).toEqual(['insufficient_balance', 'monthly_limit']);
    expect((await automation(customer.token, customer.planId)).body.autoBuy).toMatchObject({
      status: 'monthly_limit',
      boughtThisMonth: 1,
    });
  });
});
