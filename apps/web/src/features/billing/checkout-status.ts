/**
 * The polled status of a top-up, as the checkout dialog says it to a person. The word comes from the
 * provider (lower case from Cryptomus, upper case from Bitcart; see the server's client-status.ts):
 * nobody paying should have to read 'check' or 'wrong_amount_waiting'.
 */
export function describeCheckoutStatus(status: string): string {
  switch (status.trim().toLowerCase()) {
    case '':
    case 'waiting':
    case 'check':
    case 'new':
    case 'pending':
      return 'Waiting for your payment';
    case 'process':
    case 'confirm_check':
    case 'confirming':
    case 'paid':
    case 'confirmed':
      return 'Payment received, waiting for the network to confirm it';
    case 'wrong_amount_waiting':
      return 'Part of the amount arrived; waiting for the rest';
    case 'completed':
    case 'complete':
      return 'Payment confirmed';
    case 'review':
      return 'Paid short: held for a person to check';
    case 'locked':
      return 'Held by the provider for a compliance check';
    case 'failed':
    case 'fail':
    case 'system_fail':
    case 'invalid':
      return 'Payment failed';
    case 'expired':
    case 'cancel':
      return 'Invoice expired';
    case 'refunded':
    case 'refund_process':
    case 'refund_paid':
    case 'refund_fail':
      return 'Refunded by the provider';
    default:
      return 'Checking the payment';
  }
}
