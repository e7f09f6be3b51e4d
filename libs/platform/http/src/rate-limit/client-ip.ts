import { isIPv4, isIPv6 } from 'node:net';

/** The parts of an Express request the client address comes from. */
export interface AddressedRequest {
  /** Express's `req.ip`: the socket's address, or the `X-Forwarded-For` hop chosen by the app's `trust proxy`. */
  ip?: string;
  socket?: { remoteAddress?: string };
}

/**
 * The client's address as Express sees it, honouring `trust proxy` (set from TRUST_PROXY by
 * startHttpApp), with IPv4-mapped IPv6 (`::ffff:1.2.3.4`) written as plain IPv4 so one client has one
 * spelling. `unknown` when the socket is already gone. Behind a proxy with TRUST_PROXY=false this is
 * the proxy's address, shared by every client.
 */
export function clientIp(req: AddressedRequest): string {
  const raw = (req.ip || req.socket?.remoteAddress || '').trim();
  if (!raw) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(raw);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  return raw.toLowerCase();
}

/**
 * What per-IP limits should count against: the IPv4 address, or the /64 network of an IPv6 address,
 * since one subscriber usually holds a whole /64 and could otherwise change address on every try.
 */
export function clientIpKey(req: AddressedRequest): string {
  const ip = clientIp(req);
  return ipv6Network64(ip) ?? ip;
}

/** `2001:db8:0:1::/64` for any address of that network; null for anything that is not IPv6. */
export function ipv6Network64(ip: string): string | null {
  const address = ip.split('%')[0];
  if (!isIPv6(address)) return null;
  const groups = (part: string): string[] => {
    if (part === '') return [];
    const parts = part.split(':');
    const last = parts[parts.length - 1];
    if (last.includes('.')) {
      // Embedded IPv4 (`::1.2.3.4`): two 16-bit groups.
      const [a, b, c, d] = last.split('.').map(Number);
      parts.splice(parts.length - 1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
    }
    return parts;
  };
  const [head, tail] = address.split('::');
  const headGroups = groups(head);
  const all = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - groups(tail).length).fill('0'), ...groups(tail)];
  return `${all
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
