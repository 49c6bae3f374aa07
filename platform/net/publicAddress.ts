import { promises as dns } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The public-address guard for outbound HTTP: webhook registration, every webhook delivery attempt and the
 * agents' `http_request` tool. A refused URL is 400 `webhook.url_not_public` at registration
 * (docs/api/webhooks.md).
 */

/** A URL (or one of its resolved addresses) is not a public http(s) target. The API maps it to its `code`. */
export class NotPublicAddressError extends Error {
  /** The error code (docs/api/errors.md), so callers need not repeat the string. */
  readonly code = 'webhook.url_not_public';

  constructor(readonly reason: string) {
    // the URL itself is left out of the message: its query string may carry a receiver's token
    super(`URL is not a public http(s) address: ${reason}`);
    this.name = 'NotPublicAddressError';
  }
}

export type ResolvedAddress = { address: string; family: 4 | 6 };

/** Turns a hostname into all of its A/AAAA answers. Injected in tests so no real DNS is needed. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (honours /etc/hosts like every other Node client); `verbatim` keeps the OS order. */
export const defaultResolver: Resolver = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

// ipaddr.js range names → words for the error reason ("resolves to a loopback address 127.0.0.1")
const RANGE_WORDS: Record<string, string> = {
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  carrierGradeNat: 'carrier-grade NAT',
  deprecatedSiteLocal: 'site-local',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
  as112: 'AS112',
  as112v6: 'AS112',
  amt: 'AMT',
};

type Verdict = { public: boolean; kind: string };

function judgeV4(addr: ipaddr.IPv4, via?: string): Verdict {
  const range = addr.range();
  // allow-list: anything ipaddr.js puts in a named special range (reserved, documentation, 240/4, ...) is refused
  const kind = range === 'unicast' ? 'public' : (RANGE_WORDS[range] ?? range);
  return { public: range === 'unicast', kind: via ? `${via} embedding a ${kind}` : kind };
}

function v4FromParts(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function judgeV6(addr: ipaddr.IPv6): Verdict {
  const p = addr.parts;
  const range = addr.range();
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d reaches the IPv4 host itself
      return judgeV4(addr.toIPv4Address(), 'IPv4-mapped address');
    case 'rfc6052':
      // 64:ff9b::/96 (well-known NAT64) carries the IPv4 in the last 32 bits. 64:ff9b:1::/48 is local-use
      // (RFC 8215): where the IPv4 sits is the operator's choice and it is never globally routed, so refuse it.
      if (p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) {
        return judgeV4(v4FromParts(p[6], p[7]), 'NAT64 address');
      }
      return { public: false, kind: 'local-use NAT64' };
    case '6to4': // 2002:AABB:CCDD::/48 tunnels to AA.BB.CC.DD
      return judgeV4(v4FromParts(p[1], p[2]), '6to4 address');
    case 'unicast':
      // ipaddr.js calls ::a.b.c.d (deprecated IPv4-compatible) plain unicast; stacks may still route it to IPv4
      if (p.slice(0, 6).every((x) => x === 0)) return judgeV4(v4FromParts(p[6], p[7]), 'IPv4-compatible address');
      // only 2000::/3 is allocated as global unicast; the rest of "unicast" is IETF-reserved space
      if ((p[0] & 0xe000) !== 0x2000) return { public: false, kind: 'reserved' };
      return { public: true, kind: 'public' };
    default: // teredo (refused outright), loopback, linkLocal, uniqueLocal, multicast, reserved (2001:db8::/32), ...
      return { public: false, kind: RANGE_WORDS[range] ?? range };
  }
}

function judge(ip: string): Verdict {
  // zone ids (fe80::1%eth0) only exist on local links; net.isIP also refuses the octal/hex/short IPv4 forms
  // ipaddr.parse would accept, so every address judged here is in the canonical form a socket would use
  if (ip.includes('%') || net.isIP(ip) === 0) return { public: false, kind: 'non-canonical' };
  const addr = ipaddr.parse(ip);
  return addr.kind() === 'ipv4' ? judgeV4(addr as ipaddr.IPv4) : judgeV6(addr as ipaddr.IPv6);
}

/**
 * Whether an IP address literal is a public unicast address. IPv6 forms that embed an IPv4 address (IPv4-mapped,
 * IPv4-compatible, NAT64 64:ff9b::/96, 6to4) are judged by the embedded address; Teredo, local-use NAT64 and
 * zone ids are never public. Never throws: anything that is not a canonical IP literal is simply not public.
 */
export function isPublicIp(ip: string): boolean {
  return judge(ip).public;
}

function article(word: string): string {
  return /^[aeio]|^u(?!ni)/i.test(word) ? 'an' : 'a';
}

function describe(ip: string, verb: string): string {
  const { kind } = judge(ip);
  return `${verb} ${article(kind)} ${kind} address ${ip}`;
}

// names that never leave the machine or the local network (RFC 6761, RFC 6762, RFC 8375, ICANN .internal)
const LOCAL_NAMES = ['localhost', 'local', 'internal', 'localdomain', 'home.arpa'];

function stripBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Scheme, userinfo and hostname rules that hold even with `allowPrivate` (only http(s) URLs). */
function parseShape(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new NotPublicAddressError('not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NotPublicAddressError(`scheme ${url.protocol} is not http or https`);
  }
  // `http://public.example@127.0.0.1/` reads like one host and goes to another: refuse userinfo altogether
  if (url.username !== '' || url.password !== '') {
    throw new NotPublicAddressError('URL carries a user name or password');
  }
  if (url.hostname === '') throw new NotPublicAddressError('URL has no hostname');
  return url;
}

/**
 * Parses a webhook / tool URL and applies every check that needs no DNS: http(s) only, no userinfo, a hostname
 * that is not a local-only name (`localhost`, `*.localhost`, `.local`, `.internal`, `.localdomain`, `.home.arpa`)
 * and has no trailing dot, and, when the host is an IP literal in any spelling (WHATWG URL turns `2130706433`,
 * `0x7f.1`, `0177.1`, `127.1` into `127.0.0.1`), a public address.
 * @throws {NotPublicAddressError} when any rule fails.
 */
export function parseWebhookUrl(raw: string): URL {
  const url = parseShape(raw);
  const host = stripBrackets(url.hostname);
  if (net.isIP(host) !== 0) {
    if (!isPublicIp(host)) throw new NotPublicAddressError(describe(host, 'host is'));
    return url;
  }
  // `localhost.` and friends: the root-anchored spelling of a name escapes suffix checks, so refuse all of them
  if (host.endsWith('.')) throw new NotPublicAddressError(`hostname ${host} ends with a dot`);
  const lower = host.toLowerCase(); // WHATWG already lowercases; kept in case a URL object is built elsewhere
  const local = LOCAL_NAMES.find((n) => lower === n || lower.endsWith(`.${n}`));
  if (local) throw new NotPublicAddressError(`hostname ${host} is a local-only name (${local})`);
  return url;
}

function isNotFound(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOTFOUND' || code === 'ENODATA';
}

/**
 * Parses `raw`, resolves ALL of its A/AAAA answers and checks each one. Used at registration
 * and again on every delivery attempt and tool call; pin the returned addresses with
 * {@link pinnedLookup} so the connection goes to what was checked (no DNS-rebinding window).
 * With `allowPrivate` (`SVC_ALLOW_PRIVATE_WEBHOOKS` for webhooks, `SVC_ALLOW_PRIVATE_EGRESS` for the rest; local
 * development) only the http(s)/userinfo/hostname rules
 * apply; the name is still resolved so the answers can be pinned.
 * @throws {NotPublicAddressError} when the URL fails {@link parseWebhookUrl}, the name does not resolve, or ANY
 *   answer is not public (one private answer among public ones is enough to refuse).
 * @throws the resolver's own error for failures other than "no such name" (e.g. `EAI_AGAIN`), so callers can retry.
 */
export async function resolvePublicUrl(
  raw: string,
  opts: { allowPrivate: boolean; resolver?: Resolver },
): Promise<{ url: URL; addresses: ResolvedAddress[] }> {
  const url = opts.allowPrivate ? parseShape(raw) : parseWebhookUrl(raw);
  const host = stripBrackets(url.hostname);
  const literal = net.isIP(host);
  if (literal !== 0) return { url, addresses: [{ address: host, family: literal === 6 ? 6 : 4 }] };

  let answers: ResolvedAddress[];
  try {
    answers = await (opts.resolver ?? defaultResolver)(host);
  } catch (err) {
    if (isNotFound(err)) throw new NotPublicAddressError(`hostname ${host} does not resolve`);
    throw err;
  }
  if (answers.length === 0) throw new NotPublicAddressError(`hostname ${host} does not resolve`);

  const addresses: ResolvedAddress[] = [];
  for (const { address } of answers) {
    // the family comes from the address itself, not from what the resolver claims
    const family = net.isIP(address);
    // a resolver must answer with IP literals; anything else could never be pinned
    if (family === 0) throw new NotPublicAddressError(`hostname ${host} resolves to a non-address answer ${address}`);
    if (!opts.allowPrivate && !isPublicIp(address)) {
      throw new NotPublicAddressError(describe(address, `hostname ${host} resolves to`));
    }
    addresses.push({ address, family: family === 6 ? 6 : 4 });
  }
  return { url, addresses };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` / `net.connect` that answers only with the addresses {@link resolvePublicUrl}
 * already checked and never asks DNS again: a name that re-resolves to 127.0.0.1 between check and connect
 * (DNS rebinding) cannot redirect the connection. Handles `options.all` (array answer, used by Node's
 * happy-eyeballs connect) and the single-address form, and honours `options.family`.
 * The returned function reports `ENOTFOUND` through its callback when no pinned address fits the family.
 */
export function pinnedLookup(addresses: ReadonlyArray<ResolvedAddress>) {
  const pinned = addresses.map((a) => ({ address: a.address, family: a.family }));
  return function lookup(
    hostname: string,
    options: LookupOptions | number | LookupCallback,
    callback?: LookupCallback,
  ): void {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    const opts: LookupOptions =
      typeof options === 'number' ? { family: options } : typeof options === 'object' && options ? options : {};
    const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : opts.family;
    const fits = family === 4 || family === 6 ? pinned.filter((a) => a.family === family) : pinned;
    // callbacks of a lookup are always asynchronous, like dns.lookup's
    process.nextTick(() => {
      if (fits.length === 0) {
        const err: NodeJS.ErrnoException = new Error(`no checked address of ${hostname} fits family ${family}`);
        err.code = 'ENOTFOUND';
        cb(err, opts.all ? [] : '', undefined);
      } else if (opts.all) {
        cb(
          null,
          fits.map((a) => ({ ...a })),
        );
      } else {
        cb(null, fits[0].address, fits[0].family);
      }
    });
  };
}

/**
 * The guard for a host that is not a URL (a database source's host): the same rules as
 * {@link resolvePublicUrl}, and the first checked address, for the connection to go to.
 * @throws {NotPublicAddressError} as resolvePublicUrl does
 */
export async function resolvePublicHost(
  host: string,
  opts: { allowPrivate: boolean; resolver?: Resolver },
): Promise<string> {
  const literal = net.isIP(host) === 6 ? `[${host}]` : host;
  if (!/^[^\s/?#@\\[\]]+$/.test(host) && net.isIP(host) !== 6) {
    throw new NotPublicAddressError(`host ${JSON.stringify(host)} is not a hostname or IP address`);
  }
  const { addresses } = await resolvePublicUrl(`http://${literal}/`, opts);
  return addresses[0].address;
}
