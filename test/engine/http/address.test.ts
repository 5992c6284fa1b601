/**
 * The HTTP task's address classifier (lib/engine/http/address.ts): every private, loopback,
 * link-local or otherwise internal address is refused however it is written, IPv4 inside IPv6
 * included, and public addresses (IPv4-mapped public ones too) are not.
 */
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../lib/engine/http/address.ts';

describe('refusalOf', () => {
  it.each([
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified ("this network")'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local'],
    ['192.0.0.8', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    // IPv6
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['FE80::A', 'link-local'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['::1:2:3:4:5', 'reserved'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    // IPv4-mapped, every spelling
    ['::ffff:127.0.0.1', 'loopback (127.0.0.1, IPv4-mapped)'],
    ['::ffff:7f00:1', 'loopback (127.0.0.1, IPv4-mapped)'],
    ['::FFFF:7F00:0001', 'loopback (127.0.0.1, IPv4-mapped)'],
    ['0:0:0:0:0:ffff:127.0.0.1', 'loopback (127.0.0.1, IPv4-mapped)'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback (127.0.0.1, IPv4-mapped)'],
    ['0000:0000:0000:0000:0000:ffff:7f00:0001', 'loopback (127.0.0.1, IPv4-mapped)'],
    ['::ffff:0.0.0.0', 'unspecified ("this network") (0.0.0.0, IPv4-mapped)'],
    ['::ffff:a9fe:a9fe', 'link-local (169.254.169.254, IPv4-mapped)'],
    ['::ffff:10.0.0.1', 'private (10.0.0.1, IPv4-mapped)'],
    ['::ffff:192.168.0.1', 'private (192.168.0.1, IPv4-mapped)'],
    ['::ffff:100.64.0.1', 'carrier-grade NAT (100.64.0.1, IPv4-mapped)'],
    // IPv4-compatible (deprecated) and IPv4-translated
    ['::127.0.0.1', 'loopback (127.0.0.1, IPv4-compatible)'],
    ['::7f00:1', 'loopback (127.0.0.1, IPv4-compatible)'],
    ['::a9fe:a9fe', 'link-local (169.254.169.254, IPv4-compatible)'],
    ['::ffff:0:127.0.0.1', 'loopback (127.0.0.1, IPv4-translated)'],
    // NAT64 well-known prefix
    ['64:ff9b::127.0.0.1', 'loopback (127.0.0.1, NAT64)'],
    ['64:ff9b::7f00:1', 'loopback (127.0.0.1, NAT64)'],
    ['64:ff9b::a9fe:a9fe', 'link-local (169.254.169.254, NAT64)'],
    ['64:ff9b::10.0.0.1', 'private (10.0.0.1, NAT64)'],
    // 6to4: the IPv4 address in bits 16-47
    ['2002:7f00:1::', 'loopback (127.0.0.1, 6to4)'],
    ['2002:a9fe:a9fe::1', 'link-local (169.254.169.254, 6to4)'],
    ['2002:c0a8:101:0:0:0:0:1', 'private (192.168.1.1, 6to4)'],
    // Teredo: the client's IPv4 address is the last 32 bits inverted (~127.0.0.1 = 80ff:fffe)
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback (127.0.0.1, Teredo client)'],
    ['2001::4136:e378:0:0:f5ff:fffe', 'private (10.0.0.1, Teredo client)'],
    ['2001:0:a00:1::f7f7:f7f7', 'private (10.0.0.1, Teredo server)'],
    // Not an address at all
    ['localhost', 'not an IP address'],
    ['', 'not an IP address'],
  ])('refuses %s as %s', (address, why) => {
    expect(refusalOf(address)).toBe(why);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.0.1',
    '223.255.255.255',
    '2606:4700::1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '0:0:0:0:0:ffff:1.1.1.1',
    '64:ff9b::8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('allows the public address %s', (address) => {
    expect(refusalOf(address)).toBeUndefined();
  });
});
