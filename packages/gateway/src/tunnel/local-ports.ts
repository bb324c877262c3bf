import { readFileSync } from 'node:fs';

/**
 * Local ports for connections from an exit's own address (a direct exit bound to one of the host's IPs).
 *
 * Left to the kernel (bind to the address with port 0, what Node does for `localAddress`), every
 * connection makes bind() search for a port that no socket on that address holds, TIME_WAIT ones
 * included: at a few hundred new connections a second that search took 2.5 to 3 ms of CPU per
 * connection (bench:workers with bound exits), and it runs out after one port range a minute per
 * address, whatever the targets. Linux's IP_BIND_ADDRESS_NO_PORT, which leaves the port to connect(),
 * is not reachable from Node. So the gateway hands the ports out itself, in turn through the kernel's
 * ephemeral range from a random start: a port only has to be free towards its own target (the kernel
 * checks the whole address pair at connect), and when it is not, connect fails with EADDRINUSE or
 * EADDRNOTAVAIL and the dialer tries the next one (isLocalPortTaken).
 */
export interface PortRange {
  first: number;
  last: number;
}

/** The kernel's ephemeral range (ip_local_port_range), or Linux's default where it cannot be read. */
export function ephemeralRange(): PortRange {
  try {
    const [first, last] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (first && last && first >= 1024 && last <= 65535 && first < last) {
      return { first, last };
    }
  } catch {
    // Not Linux, or no /proc: the default below.
  }
  return { first: 32768, last: 60999 };
}

export class LocalPorts {
  private readonly next = new Map<string, number>();

  constructor(
    private readonly range: PortRange = ephemeralRange(),
    private readonly random: () => number = Math.random,
  ) {}

  /** The port take() will answer next for `localAddress` (tests). */
  peek(localAddress: string): number | undefined {
    const at = this.next.get(localAddress);
    return at === undefined ? undefined : this.range.first + at;
  }

  /** The next port for a connection from `localAddress`. */
  take(localAddress: string): number {
    const { first, last } = this.range;
    const size = last - first + 1;
    const at = this.next.get(localAddress) ?? Math.floor(this.random() * size);
    this.next.set(localAddress, (at + 1) % size);
    return first + at;
  }
}

/**
 * The connection failed because its local port is in use (towards that target, or bound by a listener):
 * another port may do. Not an address the host does not hold (EADDRNOTAVAIL from bind): that is the
 * exit's own failure.
 */
export function isLocalPortTaken(error: unknown): boolean {
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  return code === 'EADDRINUSE' || (code === 'EADDRNOTAVAIL' && syscall === 'connect');
}
