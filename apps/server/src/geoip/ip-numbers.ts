/** Addresses as numbers, to compare them with the ranges of a CSV database (asn-ranges.ts). */

/** An IPv4 address (already valid) as an unsigned 32-bit number. */
export function ipv4Number(ip: string): number {
  return ip.split('.').reduce((total, part) => total * 256 + Number(part), 0);
}

/** An IPv6 address (already valid, maybe with an embedded IPv4 tail) as a 128-bit number. */
export function ipv6Number(ip: string): bigint {
  let address = ip.replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (tail?.[1]) {
    const v4 = ipv4Number(tail[1]);
    address = `${address.slice(0, -tail[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups =
    rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((total, group) => (total << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}
