import { describe, expect, it } from 'vitest';
import { isLocalPortTaken, LocalPorts } from './local-ports.ts';

describe('local ports for bound exits', () => {
  it('hands out the range in turn per address, from a random start, wrapping at its end', () => {
    const ports = new LocalPorts({ first: 40000, last: 40003 }, () => 0.5);
    expect([1, 2, 3, 4, 5].map(() => ports.take('10.0.0.1'))).toEqual([40002, 40003, 40000, 40001, 40002]);
    // Another address has its own turn.
    expect(ports.take('10.0.0.2')).toBe(40002);
    expect(ports.peek('10.0.0.2')).toBe(40003);
    expect(ports.peek('10.0.0.3')).toBeUndefined();
  });

  it('retries a port taken towards the target or by a listener, not an address the host lacks', () => {
    expect(
      isLocalPortTaken(Object.assign(new Error('x'), { code: 'EADDRNOTAVAIL', syscall: 'connect' })),
    ).toBe(true);
    expect(isLocalPortTaken(Object.assign(new Error('x'), { code: 'EADDRINUSE', syscall: 'bind' }))).toBe(
      true,
    );
    expect(isLocalPortTaken(Object.assign(new Error('x'), { code: 'EADDRNOTAVAIL', syscall: 'bind' }))).toBe(
      false,
    );
    expect(
      isLocalPortTaken(Object.assign(new Error('x'), { code: 'ECONNREFUSED', syscall: 'connect' })),
    ).toBe(false);
    expect(isLocalPortTaken(null)).toBe(false);
  });
});
