/**
 * User-supplied links, as pure checks shared by the browser and the server's guarded fetcher: finding the link in a
 * pasted share text, telling a direct media file from a platform page, and refusing what the server must never
 * fetch (other schemes, addresses that are loopback, private, link-local or otherwise not on the public internet).
 * The server repeats the address check on every resolved address and every redirect (server/infra/guarded-fetch.ts).
 */

/** The first http(s) link in a share text ("7.99 复制打开抖音… https://v.douyin.com/xyz/ ABC:/ …"), or null. */
export function findLink(text: string): string | null {
  const match = /https?:\/\/[^\s<>"'\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\u4e00-\u9fff]+/i.exec(text);
  if (!match) return null;
  // Punctuation that ends a sentence is not part of the link.
  return match[0].replace(/[.,;:!?)\]}]+$/, '');
}

const MEDIA_EXTENSIONS = ['mp4', 'mov', 'm4v', 'mp3', 'm4a', 'wav'];

/** A link straight to a media file (by its path's extension): fetched as it is, no parse engine needed. */
export function isDirectMediaLink(link: string): boolean {
  try {
    const ext = new URL(link).pathname.split('.').pop()?.toLowerCase() ?? '';
    return MEDIA_EXTENSIONS.includes(ext);
  } catch {
    return false;
  }
}

/** An IPv4 address as four numbers, or null (dotted decimal only: the URL parser has already normalized hosts). */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.map(Number);
}

/** An IPv6 address as eight 16-bit numbers (with `::` and an IPv4 tail), or null. Brackets and a zone are dropped. */
export function parseIPv6(text: string): number[] | null {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!bare.includes(':')) return null;
  const halves = bare.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (!half) return [];
    const out: number[] = [];
    const parts = half.split(':');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = parseIPv4(part);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(part)) out.push(parseInt(part, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}

function ipv4Blocked([a, b, c]: number[]): boolean {
  return (
    a === 0 || a === 10 || a === 127 || a! >= 224 || // this network, private, loopback, multicast and reserved
    (a === 100 && b! >= 64 && b! <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments, TEST-NET-1
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  );
}

/** IPv4 carried inside an IPv6 address (mapped, compatible, NAT64, 6to4), which reaches that IPv4 host. */
function embeddedIPv4(g: number[]): number[] | null {
  const v4 = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255];
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || (g[5] === 0 && g[6] !== 0))) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return null;
}

/** Whether an address (IPv4 or IPv6 text) is anything but a public unicast address. Unparseable counts as blocked. */
export function isBlockedAddress(address: string): boolean {
  const v4 = parseIPv4(address);
  if (v4) return ipv4Blocked(v4);
  const g = parseIPv6(address);
  if (!g) return true;
  const inner = embeddedIPv4(g);
  if (inner) return ipv4Blocked(inner);
  const first = g[0]!;
  return (
    g.every((x) => x === 0) || // unspecified
    (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) || // loopback
    (first & 0xfe00) === 0xfc00 || // unique local
    (first & 0xffc0) === 0xfe80 || // link-local
    (first & 0xffc0) === 0xfec0 || // site-local (deprecated)
    (first & 0xff00) === 0xff00 || // multicast
    first === 0x2001 && g[1] === 0x0db8 || // documentation
    first === 0x0100 && g.slice(1, 4).every((x) => x === 0) // discard-only
  );
}

/** Whether an address is a loopback one (the only kind a test setting may let through, port by port). */
export function isLoopbackAddress(address: string): boolean {
  const v4 = parseIPv4(address);
  if (v4) return v4[0] === 127;
  const g = parseIPv6(address);
  if (!g) return false;
  const inner = embeddedIPv4(g);
  if (inner) return inner[0] === 127;
  return g.slice(0, 7).every((x) => x === 0) && g[7] === 1;
}

export type LinkRefusal = 'scheme' | 'address' | 'invalid';

/**
 * What is wrong with a link before anything is resolved: not a URL, a scheme other than http/https, credentials in
 * it, or a host that is an internal address literal. `allowLoopbackPort` lets a test reach its loopback peers.
 */
export function linkRefusal(link: string | URL, allowLoopbackPort?: (port: number) => boolean): LinkRefusal | null {
  let url: URL;
  try {
    url = typeof link === 'string' ? new URL(link) : link;
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme';
  if (!url.hostname || url.username || url.password) return 'invalid';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (parseIPv4(host) || parseIPv6(host)) return addressAllowed(host, urlPort(url), allowLoopbackPort) ? null : 'address';
  return null;
}

export const urlPort = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** A resolved address may be used: public, or loopback on a port the test setting names. */
export function addressAllowed(address: string, port: number, allowLoopbackPort?: (port: number) => boolean): boolean {
  if (!isBlockedAddress(address)) return true;
  return isLoopbackAddress(address) && !!allowLoopbackPort?.(port);
}
