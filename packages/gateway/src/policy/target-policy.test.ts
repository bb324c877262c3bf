import { describe, expect, it } from 'vitest';
import { embeddedIpv4, isPrivateAddress } from './target-policy.ts';

// Unit calls only: no packet is ever sent to any of these addresses.
describe('isPrivateAddress: the one check of the gateway and of webhooks', () => {
  const table: Array<[address: string, isPrivate: boolean, form: string]> = [
    // IPv4
    ['8.8.8.8', false, 'public IPv4'],
    ['1.1.1.1', false, 'public IPv4'],
    ['0.0.0.0', true, 'this network'],
    ['10.0.0.1', true, 'RFC 1918'],
    ['172.16.5.4', true, 'RFC 1918'],
    ['172.32.0.1', false, 'just past 172.16/12'],
    ['192.168.1.1', true, 'RFC 1918'],
    ['100.64.0.1', true, 'CGNAT'],
    ['127.0.0.1', true, 'loopback'],
    ['169.254.169.254', true, 'link-local, cloud metadata'],
    ['224.0.0.1', true, 'multicast'],
    ['255.255.255.255', true, 'broadcast'],
    // Plain IPv6
    ['2606:4700:4700::1111', false, 'public IPv6'],
    ['::', true, 'unspecified'],
    ['::1', true, 'loopback'],
    ['fc00::1', true, 'unique local'],
    ['fd12:3456::1', true, 'unique local'],
    ['fe80::1', true, 'link-local'],
    ['fe80::1%eth0', true, 'link-local with a zone'],
    ['ff02::1', true, 'multicast'],
    ['fd00:ec2::254', true, 'AWS metadata'],
    ['fec0::1', true, 'site-local'],
    ['feff:ffff::1', true, 'site-local, its last address block'],
    // IPv4-mapped ::ffff:0:0/96
    ['::ffff:8.8.8.8', false, 'mapped public'],
    ['::ffff:10.0.0.1', true, 'mapped private'],
    ['::ffff:7f00:1', true, 'mapped loopback in hex'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', true, 'mapped metadata, written out'],
    // IPv4-compatible ::/96
    ['::8.8.8.8', false, 'compatible public'],
    ['::10.0.0.1', true, 'compatible private'],
    ['::127.0.0.1', true, 'compatible loopback'],
    ['::a9fe:a9fe', true, 'compatible metadata in hex'],
    // SIIT ::ffff:0:0:0/96
    ['::ffff:0:8.8.8.8', false, 'SIIT public'],
    ['::ffff:0:10.0.0.1', true, 'SIIT private'],
    ['::ffff:0:a9fe:a9fe', true, 'SIIT metadata in hex'],
    // NAT64 well-known 64:ff9b::/96, and local-use 64:ff9b:1::/48
    ['64:ff9b::8.8.8.8', false, 'NAT64 of a public address'],
    ['64:ff9b::808:808', false, 'NAT64 of a public address, in hex'],
    ['64:ff9b::10.0.0.1', true, 'NAT64 of a private address'],
    ['64:ff9b::7f00:1', true, 'NAT64 of loopback'],
    ['64:ff9b::169.254.169.254', true, 'NAT64 of metadata'],
    ['64:ff9b:1::8.8.8.8', true, 'local-use NAT64: refused whole'],
    ['64:ff9b:1:ffff::1', true, 'local-use NAT64: refused whole'],
    // 6to4 2002::/16, the IPv4 in bits 16-48
    ['2002:808:808::1', false, '6to4 of a public address'],
    ['2002:0a00:0001::', true, '6to4 of 10.0.0.1'],
    ['2002:7f00:1::1', true, '6to4 of loopback'],
    ['2002:a9fe:a9fe::', true, '6to4 of metadata'],
    ['2002:c0a8:101:1::1', true, '6to4 of 192.168.1.1'],
    // Teredo 2001::/32: tunnels to arbitrary IPv4, refused whole
    ['2001::1', true, 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true, 'Teredo, a real-looking one'],
    ['2001:4860:4860::8888', false, 'public, right beside Teredo'],
    // Not addresses
    ['example.com', false, 'a name, not an address'],
  ];

  it.each(table)('%s is private: %s (%s)', (address, isPrivate) => {
    expect(isPrivateAddress(address)).toBe(isPrivate);
  });

  it('reads the IPv4 address each IPv6 form carries', () => {
    expect(embeddedIpv4('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(embeddedIpv4('::1.2.3.4')).toBe('1.2.3.4');
    expect(embeddedIpv4('::ffff:0:1.2.3.4')).toBe('1.2.3.4');
    expect(embeddedIpv4('64:ff9b::102:304')).toBe('1.2.3.4');
    expect(embeddedIpv4('2002:102:304:5::6')).toBe('1.2.3.4');
    expect(embeddedIpv4('2606:4700::1')).toBeNull();
  });
});
