import type { UserRole } from '@bytegate/contracts/admin';
import { setStaffRole } from '../services/back-office/set-staff-role.ts';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import { createUserViaApi, type TestServer } from './test-server.ts';

/** A new account with a role, signed in through the normal login: its token, email and id. */
export async function createUserWithRole(
  server: TestServer,
  role: UserRole,
  overrides: Record<string, unknown> = {},
) {
  const user = await createUserViaApi(server, overrides);
  const { userId } = await setStaffRole(
    { db: server.database.db, config: server.config },
    { email: user.email, role, actor: CLI_ACTOR },
  );
  return { ...user, userId };
}

/** A customer with `dollars` of credit and a 5 GB plan of `poolType` bought through the API. */
export async function createCustomerWithPlan(
  server: TestServer,
  options: { poolType?: 'datacenter' | 'residential' | 'mobile'; overrides?: Record<string, unknown> } = {},
) {
  const user = await createUserWithRole(server, 'customer', options.overrides);
  await adjustBalance(
    { db: server.database.db, config: server.config },
    { email: user.email, amountCents: 50_00, reason: 'test credit' },
  );
  const bought = await server.request<{ plan: { subUserId: string; login: string; password: string } }>(
    'POST',
    '/api/subuser/create',
    {
      token: user.token,
      body: { pool_type: options.poolType ?? 'datacenter', default_pool_parameters: { quantity: 5 } },
    },
  );
  if (bought.status !== 201) {
    throw new Error(`purchase failed with ${bought.status}`);
  }
  return { ...user, planId: bought.body.plan.subUserId, login: bought.body.plan.login };
}
