import type { RefundPreview } from '@bytegate/contracts/admin-payments';
import { formatUsd } from '@bytegate/contracts/money';
import { Command, InvalidArgumentError } from 'commander';
import { previewRefund, refundOrder } from '../services/back-office/refund-order.ts';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import type { CliContext } from './context.ts';

/** An order number as people quote it: BG-100042, bg-100042 or 100042. */
function parseOrder(value: string): string {
  const label = value.trim().toUpperCase();
  const normalized = /^\d+$/.test(label) ? `BG-${label}` : label;
  if (!/^BG-\d{6,15}$/.test(normalized)) {
    throw new InvalidArgumentError('must be an order number like BG-100042');
  }
  return normalized;
}

const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GB`;

/** What the refund moves (or would move), in one sentence. */
function describe(refund: Omit<RefundPreview, 'refusal' | 'needsAdmin'>, isDone: boolean): string {
  const cents = Math.round(refund.amount * 100);
  const balance = formatUsd(Math.round(refund.balanceAfter * 100));
  if (refund.kind === 'topup') {
    return isDone
      ? `Refunded ${refund.orderId}: ${formatUsd(cents)} taken off the balance; balance is now ${balance}.`
      : `${refund.orderId} would take ${formatUsd(cents)} off the balance, leaving ${balance}.`;
  }
  const bytes = refund.refundBytes ?? 0;
  const traffic = `${gb(bytes)} (${bytes} bytes) of ${gb(refund.boughtBytes ?? 0)} unused`;
  return isDone
    ? `Refunded ${refund.orderId}: ${traffic} came off the plan and ${formatUsd(cents)} went back to the balance; balance is now ${balance}.`
    : `${refund.orderId} would refund ${traffic}: ${formatUsd(cents)} back to the balance, leaving ${balance}.`;
}

export function refundCommand(cli: CliContext): Command {
  return new Command('refund')
    .description(
      "Refund an order once (audited): a purchase's unused traffic within 7 days of it, or a top-up whose money was returned outside Bytegate",
    )
    .requiredOption('--order <number>', 'the order, e.g. BG-100042', parseOrder)
    .option('--reason <text>', 'why, kept in the ledger and the audit log (required unless --dry-run)')
    .option('--dry-run', 'only show what the refund would move')
    .allowExcessArguments(false)
    .action(async (options: { order: string; reason?: string; dryRun?: boolean }, command: Command) => {
      if (options.dryRun) {
        const preview = await cli.withServices((ctx) =>
          previewRefund(ctx, { orderLabel: options.order, actor: CLI_ACTOR }),
        );
        if (preview.refusal) {
          cli.fail(preview.refusal.message);
          return;
        }
        cli.console.log(describe(preview, false));
        return;
      }
      const reason = options.reason?.trim();
      if (!reason) {
        command.error("error: required option '--reason <text>' not specified");
      }
      const refund = await cli.withServices((ctx) =>
        refundOrder(ctx, { orderLabel: options.order, reason, actor: CLI_ACTOR }),
      );
      cli.console.log(describe(refund, true));
    });
}
