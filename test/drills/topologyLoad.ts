import { createHash, randomUUID } from 'node:crypto';

/**
 * The topology drill's client: every request goes through the entry point and is retried the way the
 * contract asks a client to (docs/api/errors.md): on 429, 5xx and a 409 saying its key's first request is in
 * progress, after `Retry-After`, and on a dropped connection, each POST with the one `Idempotency-Key` on every
 * try, so a retry never makes a second run.
 */
export class DrillClient {
  /** Answers by status, over every try. */
  readonly statuses: Record<number, number> = {};
  networkErrors = 0;

  constructor(
    readonly baseUrl: string,
    private readonly keys: string[],
  ) {}

  private index = 0;

  /** The next key's `Authorization` value (spreading the requests over several keys' per-minute limits). */
  auth(): string {
    return this.keys[this.index++ % this.keys.length];
  }

  /**
   * One request, retried until it gets an answer that is neither 429 nor 5xx, or `deadlineMs` passes
   * (then the last answer, or the network error, is returned as it is).
   */
  async send(
    method: string,
    path: string,
    init: { json?: unknown; body?: Buffer; headers?: Record<string, string>; idempotent?: boolean } = {},
    deadlineMs = 90_000,
  ): Promise<{ status: number; body: any; bytes: Buffer }> {
    const headers: Record<string, string> = { authorization: this.auth(), ...init.headers };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    if (init.idempotent) headers['idempotency-key'] = `topology-${randomUUID()}`;
    const payload = init.json !== undefined ? JSON.stringify(init.json) : init.body;
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      let wait = 500;
      try {
        const res = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers,
          body: payload,
          signal: AbortSignal.timeout(20_000),
        });
        const bytes = Buffer.from(await res.arrayBuffer());
        this.statuses[res.status] = (this.statuses[res.status] ?? 0) + 1;
        let body: any = null;
        try {
          body = bytes.length ? JSON.parse(bytes.toString('utf8')) : null;
        } catch {
          body = null;
        }
        // a key whose first request still runs (or ran on the API just killed, until its claim lapses)
        const keyBusy = res.status === 409 && body?.error?.details?.reason === 'in_progress';
        const retry = res.status === 429 || res.status >= 500 || keyBusy;
        if (!retry || Date.now() > deadline) return { status: res.status, body, bytes };
        const after = Number(res.headers.get('retry-after'));
        if (after > 0) wait = Math.min(after, 5) * 1000;
      } catch (err) {
        this.networkErrors++;
        if (Date.now() > deadline) throw err;
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** `send`, with the answer's status required to be one of `expected`. */
  async expect(expected: number[], method: string, path: string, init: Parameters<DrillClient['send']>[2] = {}) {
    const res = await this.send(method, path, init);
    if (!expected.includes(res.status)) {
      throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body;
  }
}

/** A receipt the finance tools can read and match to one bank transaction by its amount. */
export interface Receipt {
  n: number;
  /** The amount on its "Total" line, unique per receipt. */
  amount: string;
  bytes: Buffer;
  sha256: string;
  id?: string;
}

/** Receipt `n`: a text file of a few KiB whose total (100 + n + 0.37) no other receipt has. */
export function receipt(n: number): Receipt {
  const amount = (100 + n + 0.37).toFixed(2);
  const filler = Array.from({ length: 40 + (n % 7) * 20 }, (_, i) => `item ${i}: drill line ${randomUUID()}`);
  const text = [`Receipt topology drill ${n}`, 'Date: 2026-11-15', ...filler, `Total: ${amount}`, ''].join('\n');
  const bytes = Buffer.from(text, 'utf8');
  return { n, amount, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The bank export holding one transaction per receipt, dated the receipt's day, described like it. */
export function bankExport(receipts: Receipt[]): Buffer {
  const rows = receipts.map((r) => `2026-11-15,Receipt topology drill ${r.n},-${r.amount}`);
  return Buffer.from(['date,description,amount', ...rows, ''].join('\n'), 'utf8');
}
