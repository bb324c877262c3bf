/** Rules both sandboxes share: whose URLs they accept, and how many invoices they keep in memory. */

/** Invoices kept per sandbox; past this the oldest are dropped (a sandbox must not grow without end). */
export const SANDBOX_MAX_INVOICES = 10_000;

/**
 * Whether a return or callback URL may be used: http(s) on the server's own origin only. Anything else
 * would let anyone who can open an invoice make our origin link to `javascript:` (script on our origin,
 * so an account takeover) or post webhooks to a third party. Empty means "none" and is allowed.
 */
export function isOwnOriginUrl(value: unknown, publicBaseUrl: string): boolean {
  if (value === undefined || value === null || value === '') {
    return true;
  }
  if (typeof value !== 'string') {
    return false;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === new URL(publicBaseUrl).origin
  );
}

/** Adds `value` under `key`, then drops the oldest entries (Map keeps insertion order) beyond `max`. */
export function setBounded<K, V>(
  map: Map<K, V>,
  key: K,
  value: V,
  max: number,
  onDrop: (value: V) => void,
): void {
  map.set(key, value);
  for (const [oldKey, oldValue] of map) {
    if (map.size <= max) {
      break;
    }
    map.delete(oldKey);
    onDrop(oldValue);
  }
}
