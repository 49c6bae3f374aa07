import { randomUUID } from 'node:crypto';
import type { Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';

export type Headers = Record<string, string>;

/** A request id and a user agent of the test's own, so an entry can be matched to the request that made it. */
export function traced(headers: Headers, agent = 'audit-test/1.0'): Headers & { 'x-request-id': string } {
  return { ...headers, 'user-agent': agent, 'x-request-id': `audit-${randomUUID()}` };
}

/** The workspace's whole audit log, newest first, through the API (every page). */
export async function auditLog(h: Harness, headers: Headers, query = ''): Promise<any[]> {
  const entries: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await ok(
      h.request(`/v1/audit?limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`, { headers }),
      200,
    );
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}
