import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket, { type Answer, type DecodedPacket, type Question } from 'dns-packet';
import { toType } from 'dns-packet/types';

/**
 * A real DNS server on 127.0.0.1 (UDP only) answering A, AAAA and TXT questions from a table, so the public-address
 * guard resolves names without asking anything outside the machine (`SVC_DNS_SERVERS`, docs/architecture.md).
 * Packets are read and written by `dns-packet`; this file only decides the answers.
 * A name in the table without a record of the asked type is NODATA; a name not in it is NXDOMAIN; a `silent` name
 * gets no answer at all (a server that times out).
 */

export type DnsEntry = { A?: string[]; AAAA?: string[]; TXT?: string[]; silent?: boolean };
export type DnsTable = Record<string, DnsEntry>;

/**
 * The names every test sees (jest's globalSetup serves this table). `example.com` answers a public
 * documentation-safe address that nothing ever connects to; `.test` names exist only here (RFC 6761 reserves the
 * TLD, so a real resolver would never answer them).
 */
export const TEST_DNS_TABLE: DnsTable = {
  'example.com': { A: ['93.184.215.14'], AAAA: ['2606:2800:21f:cb07:6820:80da:af6b:1c49'] },
  'public.test': { A: ['93.184.215.14'] },
  'private.test': { A: ['10.0.0.1'] },
  'mixed.test': { A: ['93.184.215.14', '10.0.0.1'] },
  'loopback6.test': { AAAA: ['::1'] },
};

export interface DnsServer {
  /** `127.0.0.1:<port>`, one `SVC_DNS_SERVERS` entry. */
  address: string;
  /** Every question asked so far, in order (`name` lowercased). */
  queries: Array<{ name: string; type: 'A' | 'AAAA' | 'TXT' | number }>;
  /** Entries can be changed while the server runs (a name that rebinds, a new name). */
  table: DnsTable;
  close(): Promise<void>;
}

const RCODE_FORMERR = 1;
const RCODE_NXDOMAIN = 3;
const RCODE_NOTIMP = 4;
const OPCODE_BITS = 0x7800;
const TTL = 5; // short: tests change entries while the server runs

/** The query's opcode and RD echoed, answered authoritatively with recursion available, and the rcode. */
function responseFlags(query: DecodedPacket, rcode: number): number {
  const echoed = (query.flags ?? 0) & (OPCODE_BITS | dnsPacket.RECURSION_DESIRED);
  return echoed | dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | rcode;
}

/** A TXT value as character-strings of at most 255 bytes each (one string cannot hold more). */
function txtStrings(text: string): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i === 0 || i < bytes.length; i += 255) parts.push(bytes.subarray(i, i + 255));
  return parts;
}

function answers(q: Question, entry: DnsEntry): Answer[] {
  const name = q.name;
  if (q.type === 'A' || q.type === 'AAAA') {
    return (entry[q.type] ?? []).map((data) => ({ type: q.type as 'A' | 'AAAA', class: 'IN', name, ttl: TTL, data }));
  }
  if (q.type === 'TXT') {
    return (entry.TXT ?? []).map((text) => ({ type: 'TXT', class: 'IN', name, ttl: TTL, data: txtStrings(text) }));
  }
  return [];
}

/** The reply to a query, or null when the name is `silent`. */
function respond(query: DecodedPacket, q: Question, table: DnsTable): Buffer | null {
  const key = q.name.toLowerCase();
  const entry = Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
  if (entry?.silent) return null;
  const reply = (rcode: number, records: Answer[] = []) =>
    dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: responseFlags(query, rcode),
      questions: [q],
      answers: records,
    });
  if (q.class !== 'IN') return reply(RCODE_NOTIMP);
  if (!entry) return reply(RCODE_NXDOMAIN);
  return reply(0, answers(q, entry));
}

/** A reply to a packet we cannot read: its id, FORMERR, nothing else (nothing at all when it has no header). */
function formatError(msg: Buffer): Buffer | null {
  if (msg.length < 12) return null;
  return dnsPacket.encode({ type: 'response', id: msg.readUInt16BE(0), flags: RCODE_FORMERR });
}

function decodeQuery(msg: Buffer): { query: DecodedPacket; question: Question } | null {
  try {
    const query = dnsPacket.decode(msg);
    const question = query.questions?.[0];
    return question ? { query, question } : null;
  } catch {
    return null;
  }
}

function queryType(type: string): DnsServer['queries'][number]['type'] {
  return type === 'A' || type === 'AAAA' || type === 'TXT' ? type : toType(type);
}

/** Starts a DNS server on 127.0.0.1 on a free port, answering from `table` (kept by reference). */
export async function startDnsServer(table: DnsTable = { ...TEST_DNS_TABLE }): Promise<DnsServer> {
  const socket = dgram.createSocket('udp4');
  const queries: DnsServer['queries'] = [];
  socket.on('message', (msg, rinfo) => {
    const decoded = decodeQuery(msg);
    const reply = decoded ? null : formatError(msg);
    if (!decoded) {
      if (reply) socket.send(reply, rinfo.port, rinfo.address);
      return;
    }
    const { query, question } = decoded;
    queries.push({ name: question.name.toLowerCase(), type: queryType(question.type) });
    const answer = respond(query, question, server.table);
    if (answer) socket.send(answer, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  const server: DnsServer = {
    address: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    queries,
    table,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  return server;
}
