import { clientIp, clientIpKey, ipv6Network64 } from './client-ip';

describe('clientIp', () => {
  it("uses Express's req.ip (which follows trust proxy)", () => {
    expect(clientIp({ ip: '203.0.113.9', socket: { remoteAddress: '10.0.0.1' } })).toBe('203.0.113.9');
  });

  it('writes IPv4-mapped IPv6 as plain IPv4', () => {
    expect(clientIp({ ip: '::ffff:203.0.113.9' })).toBe('203.0.113.9');
    expect(clientIp({ ip: '::FFFF:127.0.0.1' })).toBe('127.0.0.1');
  });

  it('keeps IPv6 as is, lower-cased', () => {
    expect(clientIp({ ip: '2001:DB8::1' })).toBe('2001:db8::1');
    expect(clientIp({ ip: '::1' })).toBe('::1');
  });

  it('falls back to the socket address, then to "unknown"', () => {
    expect(clientIp({ socket: { remoteAddress: '::ffff:10.1.2.3' } })).toBe('10.1.2.3');
    expect(clientIp({ ip: '', socket: {} })).toBe('unknown');
    expect(clientIp({})).toBe('unknown');
  });
});

describe('clientIpKey', () => {
  it('is the IPv4 address itself', () => {
    expect(clientIpKey({ ip: '::ffff:203.0.113.9' })).toBe('203.0.113.9');
  });

  it('is the /64 network of an IPv6 address, however it is written', () => {
    const net = '2001:db8:0:1::/64';
    for (const ip of ['2001:db8:0:1::1', '2001:0db8:0000:0001:ffff:ffff:ffff:ffff', '2001:DB8:0:1:a::', '2001:db8::1:0:0:0:5']) {
      expect(clientIpKey({ ip })).toBe(net);
    }
    expect(clientIpKey({ ip: '2001:db8:0:2::1' })).not.toBe(net);
  });

  it('handles the short forms', () => {
    expect(ipv6Network64('::1')).toBe('0:0:0:0::/64');
    expect(ipv6Network64('::')).toBe('0:0:0:0::/64');
    expect(ipv6Network64('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(ipv6Network64('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
    expect(ipv6Network64('1:2:3:4:5:6:1.2.3.4')).toBe('1:2:3:4::/64');
    expect(ipv6Network64('203.0.113.9')).toBeNull();
    expect(ipv6Network64('unknown')).toBeNull();
  });
});
