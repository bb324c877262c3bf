/** The sandbox checkout page: clearly a test mode, with buttons to decide how the invoice ends. */

export interface CheckoutPageProps {
  provider: string;
  invoiceId: string;
  amount: string;
  status: string;
  isFinal: boolean;
  /** Each button posts to its action URL. */
  actions: Array<{ label: string; url: string; tone: 'primary' | 'neutral' | 'danger' }>;
  returnUrl: string | null;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function renderCheckoutPage(props: CheckoutPageProps): string {
  const buttons = props.isFinal
    ? `<p class="final" role="status">This invoice is <strong>${escapeHtml(props.status)}</strong>. You can close this window.</p>`
    : props.actions
        .map(
          (action) =>
            `<form method="post" action="${escapeHtml(action.url)}"><button class="${action.tone}" type="submit">${escapeHtml(action.label)}</button></form>`,
        )
        .join('');
  // The sandboxes accept only our own http(s) URLs; never render another scheme as a link regardless.
  // The link opens in the top window: inside the checkout dialog's frame it must never load the
  // dashboard into the frame (the frame script turns it into closing the dialog instead).
  const back =
    props.returnUrl && /^https?:\/\//i.test(props.returnUrl)
      ? `<a class="back" href="${escapeHtml(props.returnUrl)}" target="_top">Back to Bytegate</a>`
      : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox checkout | ${escapeHtml(props.provider)}</title>
<style>
  body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f5f5f7;color:#111827;display:flex;min-height:100vh;align-items:center;justify-content:center}
  main{background:#fff;border:1px solid #e5e7eb;border-radius:16px;padding:32px;max-width:420px;width:calc(100% - 32px);box-shadow:0 10px 30px rgba(0,0,0,.06)}
  .badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:999px;padding:4px 10px;font-size:12px;font-weight:600;letter-spacing:.02em}
  h1{font-size:20px;margin:16px 0 4px} .amount{font-size:36px;font-weight:700;margin:8px 0 4px}
  .muted{color:#6b7280;font-size:14px;margin:0 0 24px;word-break:break-all}
  form{margin:0 0 10px} button{width:100%;padding:12px 16px;border-radius:10px;border:1px solid #d1d5db;font-size:15px;font-weight:600;cursor:pointer;background:#fff}
  button.primary{background:#4f46e5;border-color:#4f46e5;color:#fff} button.danger{color:#b91c1c}
  button:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}
  .final{background:#f3f4f6;border-radius:10px;padding:12px} .back{display:inline-block;margin-top:16px;color:#4f46e5}
  [hidden]{display:none!important}
</style></head>
<body><main data-status="${escapeHtml(props.status)}">
  <span class="badge">TEST MODE: no real payment</span>
  <h1>${escapeHtml(props.provider)} sandbox checkout</h1>
  <p class="amount">$${escapeHtml(props.amount)}</p>
  <p class="muted">Invoice ${escapeHtml(props.invoiceId)} · status ${escapeHtml(props.status)}</p>
  ${buttons}
  ${back}
  <button id="close" class="neutral" type="button" hidden style="margin-top:10px">Close</button>
</main>
<script src="/sandbox/checkout-frame.js"></script>
</body></html>`;
}

/**
 * The checkout page's script, served as a file (the CSP allows no inline script). Inside our checkout
 * dialog's frame it reports the invoice's status to the dialog and asks the dialog to close when the
 * payer follows Back to Bytegate (or its Close button, shown when there is no such link) or presses
 * Escape: a key pressed in the frame never reaches the dialog's page. Only our own origin is told anything.
 */
export const CHECKOUT_FRAME_SCRIPT = `(function () {
  if (window.parent === window) { return; }
  var main = document.querySelector('main');
  var origin = window.location.origin;
  function closeDialog() { window.parent.postMessage('close', origin); }
  try { window.parent.postMessage({ status: main ? main.getAttribute('data-status') : '' }, origin); } catch (e) {}
  var back = document.querySelector('.back');
  if (back) {
    back.addEventListener('click', function (event) { event.preventDefault(); closeDialog(); });
  } else {
    var close = document.getElementById('close');
    if (close) {
      close.hidden = false;
      close.addEventListener('click', closeDialog);
    }
  }
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') { closeDialog(); }
  });
})();
`;
