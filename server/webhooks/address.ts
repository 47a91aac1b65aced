/**
 * Where a webhook may go (decision 0585): in production only https to public addresses, checked when an
 * endpoint is saved and again at every connection (a lookup that refuses private answers, so a name that
 * later resolves to 127.0.0.1 or the cloud metadata address is never reached).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

export const messages = {
  badUrl: 'Enter a full URL, like https://example.com/hooks/checkboard.',
  httpsOnly: 'The URL must start with https://.',
  privateAddress: 'The URL must point to a public address, not a private, loopback or link-local one.',
  credentials: 'The URL must not contain a user name or password.',
};

const privateRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  privateRanges.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  privateRanges.addSubnet(network, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as IPv4.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return privateRanges.check(mapped[1]!, 'ipv4');
  return privateRanges.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** The URL's refusal, or null: its form here, its addresses when it is sent (guardedLookup). */
export function checkWebhookUrl(text: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return messages.badUrl;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return messages.badUrl;
  if (!allowPrivate && url.protocol !== 'https:') return messages.httpsOnly;
  if (url.username || url.password) return messages.credentials;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (
    !allowPrivate &&
    (isIP(host) ? isPrivateAddress(host) : host === 'localhost' || host.endsWith('.localhost'))
  )
    return messages.privateAddress;
  return null;
}

/** A dns.lookup for http.request that refuses private answers (the connection is never made). */
export function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      const refused = !allowPrivate && list.some((a) => isPrivateAddress(a.address));
      if (refused)
        return callback(Object.assign(new Error(messages.privateAddress), { code: 'EPRIVATE' }), '', 0);
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
