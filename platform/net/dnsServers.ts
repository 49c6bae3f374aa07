import { promises as dns } from 'node:dns';
import net from 'node:net';
import { defaultResolver, type ResolvedAddress, type Resolver } from './publicAddress';

/**
 * The resolver of the public-address guard when `SVC_DNS_SERVERS` names the DNS servers to ask (tests and drills
 * point it at a DNS server of their own on 127.0.0.1, so no query leaves the machine; docs/architecture.md).
 * Without servers it is the system resolver, as it always was.
 */

/** Per try; a second try waits twice as long, so a silent server costs about 3 s in all. */
const TIMEOUT_MS = 1000;
const TRIES = 2;

/**
 * Whether `entry` is one `SVC_DNS_SERVERS` item: an IP address, `ipv4:port` or `[ipv6]:port` (port 1-65535),
 * the forms `dns.Resolver#setServers` takes.
 */
export function isDnsServer(entry: string): boolean {
  if (net.isIP(entry) !== 0) return true;
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(entry);
  if (!m) return false;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return false;
  return m[1] !== undefined ? net.isIP(m[1]) === 6 : net.isIP(m[2]) === 4;
}

function notFound(code: string | undefined): boolean {
  return code === 'ENOTFOUND' || code === 'ENODATA';
}

/**
 * A {@link Resolver} that asks exactly `servers` (never /etc/hosts, never the system's resolv.conf) for A and AAAA
 * records and merges the answers; with no servers, the system resolver ({@link defaultResolver}).
 * A name with neither record fails with `ENOTFOUND` (the guard's "does not resolve"); any other failure of either
 * query (a timeout, SERVFAIL, a refused connection) fails the whole lookup with that query's error, because the
 * guard must see every answer a connection could use.
 */
export function createResolver(servers: readonly string[]): Resolver {
  if (servers.length === 0) return defaultResolver;
  const resolver = new dns.Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
  resolver.setServers([...servers]);
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const answers: ResolvedAddress[] = [];
    for (const [result, family] of [
      [v4, 4],
      [v6, 6],
    ] as const) {
      if (result.status === 'fulfilled') {
        answers.push(...result.value.map((address) => ({ address, family })));
      } else if (!notFound((result.reason as NodeJS.ErrnoException | null)?.code)) {
        throw result.reason;
      }
    }
    if (answers.length === 0) {
      throw Object.assign(new Error(`${hostname} has no A or AAAA record`), { code: 'ENOTFOUND', hostname });
    }
    return answers;
  };
}

/** Looks up the TXT records of a name: each record's character-strings, as `dns.resolveTxt` gives them. */
export type TxtResolver = (name: string) => Promise<string[][]>;

/**
 * A {@link TxtResolver} asking exactly `servers` (with none, the system's resolver), with the timeouts of
 * {@link createResolver}. A name without TXT records (NXDOMAIN, NODATA) answers `[]`; other failures throw.
 */
export function createTxtResolver(servers: readonly string[]): TxtResolver {
  const resolver = new dns.Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
  if (servers.length > 0) resolver.setServers([...servers]);
  return async (name) => {
    try {
      return await resolver.resolveTxt(name);
    } catch (err) {
      if (notFound((err as NodeJS.ErrnoException | null)?.code)) return [];
      throw err;
    }
  };
}
