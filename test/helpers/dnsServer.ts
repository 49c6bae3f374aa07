import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * A real DNS server on 127.0.0.1 (UDP only) answering A, AAAA and TXT questions from a table, so the public-address
 * guard resolves names without asking anything outside the machine (`SVC_DNS_SERVERS`, docs/architecture.md).
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

const TYPE_A = 1;
const TYPE_AAAA = 28;
const TYPE_TXT = 16;
const CLASS_IN = 1;
const RCODE_FORMERR = 1;
const RCODE_NXDOMAIN = 3;
const RCODE_NOTIMP = 4;

type Question = { id: number; flags: number; name: string; type: number; klass: number; raw: Buffer };

/** The header and first question of a query; null when the packet is not one we can read. */
function parseQuery(msg: Buffer): Question | null {
  if (msg.length < 12 || msg.readUInt16BE(4) < 1) return null;
  const labels: string[] = [];
  let i = 12;
  for (;;) {
    if (i >= msg.length) return null;
    const len = msg[i];
    if (len === 0) break;
    if (len > 63 || i + 1 + len > msg.length) return null; // no compression in a question
    labels.push(msg.toString('latin1', i + 1, i + 1 + len));
    i += 1 + len;
  }
  i += 1;
  if (i + 4 > msg.length) return null;
  const type = msg.readUInt16BE(i);
  const klass = msg.readUInt16BE(i + 2);
  return {
    id: msg.readUInt16BE(0),
    flags: msg.readUInt16BE(2),
    name: labels.join('.').toLowerCase(),
    type,
    klass,
    raw: msg.subarray(12, i + 4),
  };
}

function header(q: Question, rcode: number, answers: number): Buffer {
  const h = Buffer.alloc(12);
  h.writeUInt16BE(q.id, 0);
  // QR, the query's opcode and RD, AA, RA, rcode
  h.writeUInt16BE(0x8000 | (q.flags & 0x7800) | (q.flags & 0x0100) | 0x0400 | 0x0080 | rcode, 2);
  h.writeUInt16BE(1, 4);
  h.writeUInt16BE(answers, 6);
  return h;
}

/** A TXT record's data: the text as character-strings of at most 255 bytes each. */
function txtData(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i === 0 || i < bytes.length; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

function answer(type: number, value: string): Buffer {
  const rdata = type === TYPE_TXT ? txtData(value) : Buffer.from(ipaddr.parse(value).toByteArray());
  const rr = Buffer.alloc(12);
  rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  rr.writeUInt16BE(type, 2);
  rr.writeUInt16BE(CLASS_IN, 4);
  rr.writeUInt32BE(5, 6); // TTL: short, tests change entries
  rr.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([rr, rdata]);
}

function respond(q: Question, table: DnsTable): Buffer | null {
  const entry = Object.prototype.hasOwnProperty.call(table, q.name) ? table[q.name] : undefined;
  if (entry?.silent) return null;
  if (q.klass !== CLASS_IN) return Buffer.concat([header(q, RCODE_NOTIMP, 0), q.raw]);
  if (!entry) return Buffer.concat([header(q, RCODE_NXDOMAIN, 0), q.raw]);
  const records: Record<number, string[] | undefined> = {
    [TYPE_A]: entry.A,
    [TYPE_AAAA]: entry.AAAA,
    [TYPE_TXT]: entry.TXT,
  };
  const ips = records[q.type] ?? [];
  return Buffer.concat([header(q, 0, ips.length), q.raw, ...ips.map((ip) => answer(q.type, ip))]);
}

/** Starts a DNS server on 127.0.0.1 on a free port, answering from `table` (kept by reference). */
export async function startDnsServer(table: DnsTable = { ...TEST_DNS_TABLE }): Promise<DnsServer> {
  const socket = dgram.createSocket('udp4');
  const queries: DnsServer['queries'] = [];
  socket.on('message', (msg, rinfo) => {
    const q = parseQuery(msg);
    if (!q) {
      if (msg.length >= 12) {
        const h = Buffer.from(msg.subarray(0, 12));
        h.writeUInt16BE(0x8000 | RCODE_FORMERR, 2);
        h.fill(0, 4);
        socket.send(h, rinfo.port, rinfo.address);
      }
      return;
    }
    queries.push({
      name: q.name,
      type: q.type === TYPE_A ? 'A' : q.type === TYPE_AAAA ? 'AAAA' : q.type === TYPE_TXT ? 'TXT' : q.type,
    });
    const reply = respond(q, server.table);
    if (reply) socket.send(reply, rinfo.port, rinfo.address);
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
