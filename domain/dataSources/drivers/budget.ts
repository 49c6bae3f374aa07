import type { Socket } from 'node:net';
import { jsonValue } from './types';

/** Bytes of rows one read may answer, unless the deps name another (`SVC_MAX_READ_BYTES`). */
export const MAX_READ_BYTES = 10 * 1024 * 1024;

/** A row's size as it will be answered: its values made JSON-safe, serialized, in UTF-8 bytes. */
export function rowBytes(row: unknown[]): number {
  return Buffer.byteLength(JSON.stringify(row.map(jsonValue)));
}

/**
 * Rows of one read, kept while they fit in `maxBytes` (docs/api/data-sources.md): the first row that would
 * pass it ends the read as truncated. A row alone larger than the budget ends it with the rows before it.
 */
export class RowBudget {
  readonly rows: unknown[][] = [];
  private bytes = 0;
  truncated = false;
  /** The byte budget (not the row cap) ended the read: the server may still be sending. */
  spent = false;

  constructor(
    private readonly maxBytes: number,
    private readonly maxRows: number,
  ) {}

  /** Takes a row; false once the read must stop (budget spent, or one row past the row cap seen). */
  take(row: unknown[]): boolean {
    if (this.truncated) return false;
    if (this.rows.length >= this.maxRows) {
      this.truncated = true;
      return false;
    }
    const size = rowBytes(row);
    if (this.bytes + size > this.maxBytes) {
      this.cut();
      return false;
    }
    this.bytes += size;
    this.rows.push(row);
    return true;
  }

  /** Ends the read as truncated by its bytes. */
  cut(): void {
    this.truncated = true;
    this.spent = true;
  }
}

/** Wire bytes a read may take before its socket is cut: room for the protocol around the budgeted rows. */
export const wireLimit = (maxBytes: number) => 2 * maxBytes + 1024 * 1024;

/**
 * Counts the bytes a database server sends on `socket` while `armed`, and destroys the socket once they pass
 * `limit`: a single value larger than the budget is cut off on the wire, before the driver holds it whole.
 */
export function meterSocket(socket: Socket, limit: number, onCut: () => void) {
  let received = 0;
  let armed = false;
  socket.on('data', (chunk: Buffer) => {
    if (!armed) return;
    received += chunk.length;
    if (received > limit) {
      armed = false;
      onCut();
      socket.destroy();
    }
  });
  return {
    arm() {
      received = 0;
      armed = true;
    },
    disarm() {
      armed = false;
    },
  };
}
