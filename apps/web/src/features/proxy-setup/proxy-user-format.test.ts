import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import { type ProxyUser, proxyUserMessages } from '@bytegate/contracts/proxy-users';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/api-client.ts';
import {
  changedFieldsOf,
  createBodyOf,
  EMPTY_FORM,
  fieldOfError,
  formValuesOf,
  proxyUserFormSchema,
} from './proxy-user-form-rules.ts';
import {
  describeCap,
  describeReset,
  describeTargeting,
  describeThreads,
  displayName,
  formatTraffic,
  summarizeUsage,
} from './proxy-user-format.ts';

const GB = BYTES_PER_GB;

function user(overrides: Partial<ProxyUser> = {}): ProxyUser {
  return {
    id: '3f0b6a52-8c1e-4f7a-9a55-0c3b1d2e4f60',
    plan_id: 'plan-1',
    login: 'acme0001',
    password: 'Secret0000000000000A',
    label: '',
    enabled: true,
    traffic_cap: null,
    threads: null,
    usage: { period_used_bytes: 0, period_start: null, cap_left_bytes: null, lifetime_used_bytes: 0 },
    targeting: null,
    allowlist: [],
    allowlist_verified: [],
    created_at: '2026-01-10T12:00:00.000Z',
    updated_at: '2026-01-10T12:00:00.000Z',
    ...overrides,
  };
}

const monthly = (usedBytes: number, capGb = 1.5) =>
  user({
    traffic_cap: { bytes: capGb * GB, gb: capGb, period: 'month' },
    usage: {
      period_used_bytes: usedBytes,
      period_start: '2026-01-01T00:00:00.000Z',
      cap_left_bytes: Math.max(0, capGb * GB - usedBytes),
      lifetime_used_bytes: usedBytes + GB,
    },
  });

describe('a proxy user as Proxy Setup writes it', () => {
  it('is called by its label, or by its login without one', () => {
    expect(displayName(user({ label: 'Customer Acme' }))).toBe('Customer Acme');
    expect(displayName(user({ label: '  ' }))).toBe('acme0001');
  });

  it('writes traffic in GB, and small amounts in MB', () => {
    expect(formatTraffic(0)).toBe('0 GB');
    expect(formatTraffic(12.34 * 1024 ** 2)).toBe('12.3 MB');
    expect(formatTraffic(1.256 * GB)).toBe('1.26 GB');
  });

  it('reads usage against the cap in its period, with what is left', () => {
    expect(summarizeUsage(monthly(0.4 * GB))).toEqual({
      text: '0.4 of 1.5 GB this month',
      percent: (0.4 / 1.5) * 100,
      aside: '1.1 GB left',
      tone: 'normal',
    });
    expect(summarizeUsage(monthly(1.4 * GB)).tone).toBe('near');
    expect(summarizeUsage(monthly(1.5 * GB))).toMatchObject({
      aside: 'Cap reached',
      tone: 'reached',
      percent: 100,
    });
    expect(summarizeUsage(monthly(5 * 1024 ** 2)).text).toBe('5 MB of 1.5 GB this month');
  });

  it('shows lifetime use and no bar without a cap', () => {
    const uncapped = user({ usage: { ...user().usage, lifetime_used_bytes: 2 * GB } });
    expect(summarizeUsage(uncapped)).toEqual({
      text: '2 GB used',
      percent: null,
      aside: 'No cap',
      tone: 'normal',
    });
    expect(describeCap(uncapped)).toBe('No cap');
    expect(describeReset(uncapped)).toBeNull();
  });

  it('says when a monthly cap starts again, and what the limits are', () => {
    expect(describeReset(monthly(0))).toBe('Resets Feb 1, 2026, 00:00 UTC');
    expect(describeCap(monthly(0))).toBe('1.5 GB per month');
    expect(describeThreads(user({ threads: 5 }), 500)).toBe('5 threads');
    expect(describeThreads(user(), 500)).toBe('Plan’s 500 threads');
  });

  it("tells the plan's targeting from its own", () => {
    expect(describeTargeting(user()).title).toBe('Uses the plan’s Proxy Settings');
    const own = describeTargeting(
      user({
        targeting: {
          countries: ['US', 'DE', 'FR', 'GB'],
          states: [],
          cities: [],
          zipcodes: [],
          asns: [],
          exclude_countries: [],
          exclude_asn: [],
          anonymous_filter: true,
          rotation_interval: 10,
        },
      }),
    );
    expect(own).toEqual({
      title: 'Own targeting',
      detail: 'Countries US, DE, FR +1 · anonymous filter · rotation 10 min',
    });
  });
});

describe('the proxy user form', () => {
  const schema = proxyUserFormSchema(500);
  const messagesOf = (values: Partial<typeof EMPTY_FORM>) => {
    const result = schema.safeParse({ ...EMPTY_FORM, ...values });
    return result.success
      ? []
      : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it("refuses what the server would, with the server's messages", () => {
    expect(messagesOf({})).toEqual([]);
    expect(messagesOf({ login: 'bg12345678' })).toEqual([`login: ${proxyUserMessages.loginFormat}`]);
    expect(messagesOf({ capGb: '1.2345' })).toEqual([`capGb: ${proxyUserMessages.capFormat}`]);
    expect(messagesOf({ capGb: '0' })).toEqual([`capGb: ${proxyUserMessages.capFormat}`]);
    expect(messagesOf({ threads: '0' })).toEqual([`threads: ${proxyUserMessages.threadsFormat}`]);
    expect(messagesOf({ threads: '501' })).toEqual([`threads: ${proxyUserMessages.threadsOverPlan(500)}`]);
    expect(messagesOf({ allowlist: '10.0.0.1' })[0]).toMatch(/^allowlist: Enter a public address/);
  });

  it('sends only what was filled in on creation', () => {
    expect(createBodyOf(EMPTY_FORM)).toEqual({});
    expect(
      createBodyOf({
        ...EMPTY_FORM,
        label: ' Acme ',
        capGb: '1.5',
        threads: '5',
        allowlist: '203.0.113.7, 203.0.113.8',
      }),
    ).toEqual({
      label: 'Acme',
      traffic_cap_gb: 1.5,
      cap_period: 'month',
      threads: 5,
      allowlist: ['203.0.113.7', '203.0.113.8'],
    });
  });

  it('sends only what changed on an edit, null to clear', () => {
    const current = monthly(0);
    const values = formValuesOf(current);
    expect(changedFieldsOf(values, current)).toEqual({});
    expect(changedFieldsOf({ ...values, capGb: '2' }, current)).toEqual({
      traffic_cap_gb: 2,
      cap_period: 'month',
    });
    expect(changedFieldsOf({ ...values, capGb: '' }, current)).toEqual({
      traffic_cap_gb: null,
      cap_period: null,
    });
    expect(changedFieldsOf({ ...values, threads: '7' }, current)).toEqual({ threads: 7 });
  });

  it('puts a refusal under the field the server names, else over the form', () => {
    const refused = (body: Record<string, unknown>) =>
      new ApiError(400, { error: 'x', code: 'VALIDATION_FAILED', ...body });
    expect(fieldOfError(refused({ field: 'traffic_cap_gb' }))).toBe('capGb');
    expect(fieldOfError(refused({ field: 'login' }))).toBe('login');
    expect(fieldOfError(refused({ field: 'targeting.countries' }))).toBeNull();
    expect(fieldOfError(refused({}))).toBeNull();
    expect(fieldOfError(new ApiError(409, { error: 'x', code: 'CONFLICT' }))).toBeNull();
  });
});
