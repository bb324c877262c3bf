import { formatUsdGrouped as usd } from '@bytegate/contracts/money';
import type { OrderRow, UserRow } from '@bytegate/db/queries';
import { orderNumberLabel } from './present-order.ts';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const day = (date: Date) =>
  date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

const paymentMethodNames: Record<OrderRow['paymentMethod'], string> = {
  balance: 'Account balance',
  cryptomus: 'Cryptocurrency (Cryptomus)',
  bitcart: 'Cryptocurrency (Bitcart)',
};

/** A printable invoice (receipt) for a completed order: seller, buyer, line, amounts and dates. */
export function renderInvoice(order: OrderRow, buyer: UserRow, publicUrl: string): string {
  const number = orderNumberLabel(order.number);
  const paidCents = order.kind === 'topup' ? order.creditedCents || order.amountCents : order.amountCents;
  const buyerName = `${buyer.firstName} ${buyer.lastName}`.trim();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice ${number} | Bytegate</title>
<style>
  body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;margin:0;background:#f3f4f6}
  .sheet{max-width:760px;margin:32px auto;background:#fff;padding:48px;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
  header{display:flex;justify-content:space-between;align-items:flex-start;gap:24px;border-bottom:1px solid #e5e7eb;padding-bottom:24px}
  h1{margin:0;font-size:28px} .muted{color:#6b7280} .brand{font-weight:700;font-size:20px;color:#4f46e5}
  .parties{display:grid;grid-template-columns:1fr 1fr;gap:24px;margin:28px 0}
  h2{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:#6b7280;margin:0 0 8px}
  table{width:100%;border-collapse:collapse;margin-top:8px} th{text-align:left;font-size:12px;color:#6b7280;text-transform:uppercase;letter-spacing:.06em;border-bottom:1px solid #e5e7eb;padding:8px 0}
  td{padding:12px 0;border-bottom:1px solid #f3f4f6} .num{text-align:right}
  .total td{font-weight:700;border-bottom:0;font-size:18px} .badge{display:inline-block;background:#d1fae5;color:#065f46;border-radius:999px;padding:2px 10px;font-size:12px;font-weight:600}
  button{margin-top:24px;padding:10px 16px;border-radius:8px;border:1px solid #d1d5db;background:#fff;font-weight:600;cursor:pointer}
  @media print{body{background:#fff}.sheet{box-shadow:none;margin:0;padding:0}button{display:none}}
  @media (max-width:600px){.sheet{padding:24px;margin:0;border-radius:0}.parties{grid-template-columns:1fr}}
</style></head>
<body><main class="sheet">
  <header>
    <div><div class="brand">Bytegate</div><p class="muted">Pay-per-GB proxy service<br>${escapeHtml(new URL(publicUrl).host)}</p></div>
    <div style="text-align:right"><h1>Invoice</h1><p class="muted">${number}<br>Issued ${day(order.completedAt ?? order.createdAt)}</p><span class="badge">PAID</span></div>
  </header>
  <section class="parties">
    <div><h2>Seller</h2><p>Bytegate<br><span class="muted">support via ${escapeHtml(publicUrl)}/contact</span></p></div>
    <div><h2>Billed to</h2><p>${escapeHtml(buyerName)}${buyer.company ? `<br>${escapeHtml(buyer.company)}` : ''}<br><span class="muted">${escapeHtml(buyer.email)}</span></p></div>
  </section>
  <table>
    <thead><tr><th>Description</th><th class="num">Amount</th></tr></thead>
    <tbody>
      <tr><td>${escapeHtml(order.description)}<br><span class="muted">Order date ${day(order.createdAt)} · ${escapeHtml(paymentMethodNames[order.paymentMethod])}</span></td><td class="num">${usd(paidCents)}</td></tr>
      <tr class="total"><td>Total paid (${escapeHtml(order.currency)})</td><td class="num">${usd(paidCents)}</td></tr>
    </tbody>
  </table>
  <button type="button" id="print">Print or save as PDF</button>
</main><script src="${INVOICE_SCRIPT_PATH}"></script></body></html>`;
}

/** Where the invoice's one script is served: the CSP allows no inline script or handler. */
export const INVOICE_SCRIPT_PATH = '/api/orders/invoice.js';

export const INVOICE_SCRIPT = `document.getElementById('print').addEventListener('click', function () { window.print(); });
`;
