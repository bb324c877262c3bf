import type { CustomerDetailResponse } from '@bytegate/contracts/admin';
import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import { formatUsd } from '@bytegate/contracts/money';
import { Command } from 'commander';
import { getCustomerDetail } from '../services/back-office/get-customer-detail.ts';
import { searchCustomers } from '../services/back-office/search-customers.ts';
import type { CliContext } from './context.ts';
import { resolveCustomerId } from './customer-ref.ts';

/** Bytes as GB with three decimals, as the console shows traffic (1 GB = 1024^3 bytes). */
const gb = (bytes: number) => `${(bytes / BYTES_PER_GB).toFixed(3)} GB`;
const dollars = (amount: number) => formatUsd(Math.round(amount * 100));
const day = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** A customer's page as text: what an operator reads before acting. */
function printCustomer(cli: CliContext, detail: CustomerDetailResponse): void {
  const { customer } = detail;
  const log = (line = '') => cli.console.log(line);
  const name = `${customer.firstName} ${customer.lastName}`.trim();
  log(`${customer.email}${name ? ` (${name})` : ''}${customer.company ? `, ${customer.company}` : ''}`);
  log(`  id       ${customer.id}`);
  log(`  status   ${customer.status}; role ${customer.role}; since ${day(customer.createdAt)}`);
  log(`  balance  ${dollars(customer.balance)}`);
  log(`  sessions ${detail.sessions.length} open`);
  log();
  log(detail.plans.length === 0 ? 'Plans: none' : 'Plans:');
  for (const plan of detail.plans) {
    log(
      `  ${plan.poolType.padEnd(11)} ${plan.login}  ${gb(plan.trafficUsedBytes)} used of ${gb(plan.trafficTotalBytes)}, ` +
        `${plan.threadLimit} threads${plan.isActive ? '' : ', inactive'}` +
        (plan.allowlist.length > 0 ? `, allowlist ${plan.allowlist.join(' ')}` : ''),
    );
  }
  const { ports, hosts } = detail.unblocks;
  log(
    `Unblocked: ports ${ports.length > 0 ? ports.join(', ') : 'none'}; domains ${hosts.length > 0 ? hosts.join(', ') : 'none'}`,
  );
  log();
  log(detail.orders.length === 0 ? 'Orders: none' : 'Latest orders:');
  for (const order of detail.orders.slice(0, 10)) {
    log(
      `  ${order.orderId}  ${day(order.date)}  ${order.status.padEnd(9)} ${dollars(order.amount)}  ${order.description}`,
    );
  }
  log(detail.ledger.length === 0 ? 'Ledger: empty' : 'Latest ledger entries:');
  for (const entry of detail.ledger.slice(0, 10)) {
    log(
      `  ${day(entry.createdAt)}  ${entry.kind.padEnd(10)} ${dollars(entry.amount).padStart(10)}${entry.note ? `  ${entry.note}` : ''}`,
    );
  }
  log(detail.audit.length === 0 ? 'Staff actions: none' : 'Latest staff actions:');
  for (const entry of detail.audit.slice(0, 10)) {
    log(
      `  ${day(entry.createdAt)}  ${entry.action} by ${entry.actorEmail}${entry.reason ? `: ${entry.reason}` : ''}`,
    );
  }
}

export function customersCommand(cli: CliContext): Command {
  const customers = new Command('customers').description('Find customers and read their accounts');
  customers
    .command('show')
    .description("A customer's account: status, balance, plans, unblocks, orders, ledger and staff actions")
    .argument('<customer>', 'the account, by email or id')
    .option('--json', 'print the console API answer as JSON, for scripts')
    .allowExcessArguments(false)
    .action(async (reference: string, options: { json?: boolean }) => {
      const detail = await cli.withServices(async (ctx) =>
        getCustomerDetail(ctx, { userId: await resolveCustomerId(ctx, reference) }),
      );
      if (options.json) {
        cli.console.log(JSON.stringify(detail, null, 2));
      } else {
        printCustomer(cli, detail);
      }
    });
  customers
    .command('search')
    .description('Customers by email, name, proxy login, IP, order number or invoice id (the console search)')
    .argument('<query>', 'what to look for')
    .allowExcessArguments(false)
    .action(async (q: string) => {
      const found = await cli.withServices((ctx) => searchCustomers(ctx, { q }));
      if (found.length === 0) {
        cli.console.log(`No customer matches "${q}".`);
        return;
      }
      for (const customer of found) {
        cli.console.log(
          `${customer.id}  ${customer.email}  ${customer.status}  ${dollars(customer.balance)}  (matched by ${customer.matchedBy.replace('_', ' ')})`,
        );
      }
    });
  return customers;
}
