/** Rules both sandboxes share: whose URLs they accept, and how many invoices they keep in memory. */

/** Invoices kept per sandbox; past this the oldest are dropped (a sandbox must not grow without end). */
export const SANDBOX_MAX_INVOICES = 10_000;
/**
 * Bytes of invoices kept per sandbox (their JSON size): past this too the oldest are dropped, so long
 * URLs or currencies cannot grow it either (2,000 invoices with 20 KB URLs once took 169 MB).
 */
export const SANDBOX_MAX_BYTES = 16 * 1024 * 1024;

/** How much room an invoice takes in a sandbox's store, as counted against SANDBOX_MAX_BYTES. */
export const storedBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

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

/** The bounds of a sandbox's invoices: how many, and how many bytes (see `storedBytes`). */
export interface StoreBounds {
  maxCount: number;
  maxBytes: number;
}

/**
 * A sandbox's invoices in creation order, bounded in count and in bytes: adding one drops the oldest
 * beyond either bound (a sandbox user expects the invoice just opened to work, not one of last week).
 * An invoice is sized when added; what a checkout changes later is a few fixed-size fields.
 */
export class BoundedStore<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private totalBytes = 0;

  constructor(
    private readonly bounds: StoreBounds,
    private readonly onDrop: (value: V) => void,
  ) {}

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** The bytes held now (for tests and the bound). */
  get bytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  set(key: string, value: V): void {
    const previous = this.entries.get(key);
    if (previous) {
      this.totalBytes -= previous.bytes;
      this.entries.delete(key);
    }
    const bytes = storedBytes(value);
    this.entries.set(key, { value, bytes });
    this.totalBytes += bytes;
    for (const [oldKey, old] of this.entries) {
      const isOver = this.entries.size > this.bounds.maxCount || this.totalBytes > this.bounds.maxBytes;
      // The newest is kept even alone over the bound: the request bodies' own limit bounds its size.
      if (!isOver || oldKey === key) {
        break;
      }
      this.entries.delete(oldKey);
      this.totalBytes -= old.bytes;
      this.onDrop(old.value);
    }
  }
}
