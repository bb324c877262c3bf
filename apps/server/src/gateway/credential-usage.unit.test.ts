import type { PlanUsage } from '@bytegate/gateway';
import { describe, expect, it } from 'vitest';
import { credentialUsageOf } from './credential-usage.ts';

const usage = (fields: Partial<PlanUsage>): PlanUsage => ({
  bytes: 0,
  extraBytes: 0,
  requests: 0,
  errors: 0,
  errorsByCode: {},
  hostBytes: {},
  hostRequests: {},
  hostErrors: {},
  sourceBytes: {},
  sourceExtraBytes: {},
  agentBytes: {},
  ...fields,
});

describe('a drain of the meter by credential', () => {
  it('gives every plan a row for all its credentials and one for its own login', () => {
    const rows = credentialUsageOf(
      new Map([
        [
          'plan-a',
          usage({
            bytes: 1000,
            extraBytes: 200,
            requests: 5,
            errors: 3,
            errorsByCode: { PORT_BLOCKED: 1, NO_RAY: 1, PARAM_CONFLICT: 1 },
            hostBytes: { 'example.com': 1000 },
            hostRequests: { 'example.com': 4, 'blocked.test': 1 },
            hostErrors: { 'example.com': 2, 'blocked.test': 1 },
          }),
        ],
      ]),
      () => undefined,
    );
    const all = rows.find((row) => row.credentialKey === '*');
    expect(all).toEqual({
      planId: 'plan-a',
      credentialKey: '*',
      bytes: 1000,
      extraBytes: 200,
      requests: 5,
      errors: 3,
      // A blocked port and a bad combination of parameters are our policy; no exit matching is not.
      refusals: 2,
      errorsByCode: { PORT_BLOCKED: 1, NO_RAY: 1, PARAM_CONFLICT: 1 },
      hosts: {
        'example.com': { bytes: 1000, requests: 4, errors: 2 },
        'blocked.test': { bytes: 0, requests: 1, errors: 1 },
      },
    });
    expect(rows.find((row) => row.credentialKey === '')).toEqual({ ...all, credentialKey: '' });
  });

  it('takes proxy users’ shares off their plan’s own login', () => {
    const rows = credentialUsageOf(
      new Map([
        [
          'plan-a',
          usage({
            bytes: 1000,
            requests: 5,
            errors: 2,
            errorsByCode: { NO_HOST_CONNECTION: 2 },
            hostBytes: { 'a.test': 600, 'b.test': 400 },
            hostRequests: { 'a.test': 3, 'b.test': 2 },
            hostErrors: { 'b.test': 2 },
          }),
        ],
        [
          'pu:user-1',
          usage({
            bytes: 400,
            requests: 2,
            errors: 2,
            errorsByCode: { NO_HOST_CONNECTION: 2 },
            hostBytes: { 'b.test': 400 },
            hostRequests: { 'b.test': 2 },
            hostErrors: { 'b.test': 2 },
          }),
        ],
        // A proxy user deleted meanwhile: its share stays with the plan's own login.
        ['pu:gone', usage({ bytes: 100, requests: 1 })],
      ]),
      (proxyUserId) => (proxyUserId === 'user-1' ? 'plan-a' : undefined),
    );
    expect(rows.map((row) => row.credentialKey).sort()).toEqual(['', '*', 'user-1']);
    expect(rows.find((row) => row.credentialKey === 'user-1')).toMatchObject({
      planId: 'plan-a',
      bytes: 400,
      requests: 2,
      errors: 2,
      refusals: 0,
      hosts: { 'b.test': { bytes: 400, requests: 2, errors: 2 } },
    });
    expect(rows.find((row) => row.credentialKey === '')).toEqual({
      planId: 'plan-a',
      credentialKey: '',
      bytes: 600,
      extraBytes: 0,
      requests: 3,
      errors: 0,
      refusals: 0,
      errorsByCode: {},
      hosts: { 'a.test': { bytes: 600, requests: 3, errors: 0 } },
    });
  });
});
