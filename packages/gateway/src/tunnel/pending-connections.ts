import { isIPv6, type Socket } from 'node:net';
import { Deadlines } from './deadlines.ts';

/** How many connections may wait to authenticate at once, per client and for the whole gateway. */
export interface PendingLimits {
  /** Per client address (an IPv6 client per /64, the block one subscriber holds). */
  perAddress: number;
  /** For the whole gateway: past it new connections are shed with 503 OVERLOADED. */
  total: number;
  /**
   * From accepting a connection to admitting it (the first request head read and its credentials
   * checked, or the SOCKS5 handshake done): an absolute deadline, however slowly the bytes trickle in.
   */
  deadlineMs: number;
}

export const DEFAULT_PENDING_LIMITS: PendingLimits = { perAddress: 64, total: 4096, deadlineMs: 10_000 };

/** Why a new connection is turned away before it says anything. */
export type PendingRefusal = 'TOO_MANY_CONNECTIONS' | 'OVERLOADED';

/** Dotted-quad IPv4 as Node reports it (digits and dots only): already its own per-client key. */
function isPlainIPv4(address: string): boolean {
  if (address.length < 7 || address.length > 15) {
    return false;
  }
  for (let i = 0; i < address.length; i++) {
    const code = address.charCodeAt(i);
    if (code !== 46 && (code < 48 || code > 57)) {
      return false;
    }
  }
  return true;
}

/** The address a per-client count is kept under: IPv4 as is, IPv6 by its /64 prefix. */
export function clientKey(address: string): string {
  const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').replace(/%.*$/, '');
  if (!isIPv6(plain)) {
    return plain;
  }
  const [head = '', tail = ''] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = plain.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Bounds the work done for clients that have not authenticated: they cost memory, a descriptor and
 * parsing, and cost the attacker nothing. Each connection is counted from accept until its admission
 * (or close), per client address and in total, and is closed when it has not been admitted by the
 * deadline. Admitted connections are limited by their plan's threads instead.
 */
export class PendingConnections {
  private total = 0;
  private readonly byKey = new Map<string, number>();
  /** Each waiting connection's per-address key. */
  private readonly waiting = new Map<Socket, string>();
  /** Their deadlines, on one timer (not one per connection). */
  private readonly deadlines: Deadlines<Socket>;
  /** One close listener for every connection (not a closure each). */
  private readonly onClose: (this: Socket) => void;

  constructor(private readonly limits: PendingLimits = DEFAULT_PENDING_LIMITS) {
    this.deadlines = new Deadlines(limits.deadlineMs, (socket) => socket.destroy());
    const pending = this;
    this.onClose = function (this: Socket) {
      pending.leave(this);
    };
  }

  /** Connections accepted and not yet admitted. */
  get size(): number {
    return this.total;
  }

  /**
   * A connection just accepted: counts it and arms its deadline, or answers why it must be turned
   * away (the caller answers in the listener's protocol and closes it; it is not counted).
   */
  enter(socket: Socket): PendingRefusal | null {
    if (this.total >= this.limits.total) {
      return 'OVERLOADED';
    }
    const address = socket.remoteAddress ?? '';
    // IPv4 (the common case) is its own key: no regular expressions per connection.
    const key = isPlainIPv4(address) ? address : clientKey(address);
    const count = this.byKey.get(key) ?? 0;
    if (count >= this.limits.perAddress) {
      return 'TOO_MANY_CONNECTIONS';
    }
    this.total += 1;
    this.byKey.set(key, count + 1);
    this.deadlines.set(socket);
    this.waiting.set(socket, key);
    socket.on('close', this.onClose);
    return null;
  }

  /** The connection authenticated (or closed): it no longer counts and has no deadline. */
  leave(socket: Socket): void {
    const key = this.waiting.get(socket);
    if (key === undefined) {
      return;
    }
    this.deadlines.delete(socket);
    this.waiting.delete(socket);
    socket.off('close', this.onClose);
    this.total -= 1;
    const count = (this.byKey.get(key) ?? 1) - 1;
    if (count <= 0) {
      this.byKey.delete(key);
    } else {
      this.byKey.set(key, count);
    }
  }
}
