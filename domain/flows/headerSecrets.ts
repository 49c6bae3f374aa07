import type { EntityManager } from '@mikro-orm/postgresql';
import type { FlowStep } from '../../workflows/flowMessages';
import type { SecretBox, SecretSlot } from '../../platform/secrets';
import { errors } from '../errors';

/**
 * What every read shows in place of an http step's header value. Header values are write-only, like
 * every stored secret (an `Authorization` header is a credential): a flow's answers show the header names
 * only, and a change that sends this value back for a header the step already has keeps the stored one.
 */
export const HIDDEN_HEADER = '[hidden]';

type HttpStep = Extract<FlowStep, { type: 'http' }>;

const isHttp = (step: FlowStep): step is HttpStep => step.type === 'http';

/** Each value is bound to its flow, step and header, so a sealed value moved elsewhere does not open. */
function slot(flowId: string, step: string, header: string): SecretSlot {
  return { table: 'flows', id: flowId, column: `steps.${step}.headers.${header.toLowerCase()}` };
}

/**
 * The steps as stored: every http header value sealed (platform/secrets.ts). A value given as
 * {@link HIDDEN_HEADER} keeps what `previous` (the flow's steps before this change) stored for the same
 * step and header.
 * @throws 400 `validation_error` at `steps.<i>.headers.<name>` for a hidden value with nothing to keep
 */
export function sealHeaders(box: SecretBox, flowId: string, steps: FlowStep[], previous: FlowStep[] = []): FlowStep[] {
  const before = new Map(previous.filter(isHttp).map((s) => [s.name, s.headers ?? {}]));
  return steps.map((step, i) => {
    if (!isHttp(step) || !step.headers) return step;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(step.headers)) {
      if (value !== HIDDEN_HEADER) {
        headers[name] = box.seal(value, slot(flowId, step.name, name));
        continue;
      }
      const kept = Object.entries(before.get(step.name) ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase());
      if (!kept) {
        throw errors.validation([
          { path: `steps.${i}.headers.${name}`, message: `${HIDDEN_HEADER} keeps a header the step already has` },
        ]);
      }
      headers[name] = kept[1];
    }
    return { ...step, headers };
  });
}

/** The steps as answers show them: header names, never their values. */
export function hideHeaders(steps: FlowStep[]): FlowStep[] {
  return steps.map((step) =>
    isHttp(step) && step.headers
      ? { ...step, headers: Object.fromEntries(Object.keys(step.headers).map((k) => [k, HIDDEN_HEADER])) }
      : step,
  );
}

/**
 * An http step's headers in the clear, to send. Flows saved before header values were sealed hold them
 * in the clear, and those read as they are.
 * @throws SecretError (platform/secrets.ts) for a value that does not open
 */
export function openHeaders(box: SecretBox, flowId: string, step: HttpStep): Record<string, string> {
  return Object.fromEntries(
    Object.entries(step.headers ?? {}).map(([k, v]) => [
      k,
      box.open(v, slot(flowId, step.name, k), { legacyPlaintext: true }),
    ]),
  );
}

/** Rows read per statement by {@link resealFlowHeaders}. */
const BATCH = 200;

/**
 * Re-seals every http header value of the flows, and of the flow runs not yet finished (their copy of the
 * steps is what they send), under the current key: values of an earlier key, and the plaintext of flows saved
 * before header values were sealed. Each row is replaced only if it still holds what was read, so it is safe
 * beside running processes and again at any time. Part of `npm run admin -- secrets:rotate`.
 */
export async function resealFlowHeaders(
  em: EntityManager,
  box: SecretBox,
): Promise<Array<{ table: string; column: string; resealed: number; current: number; failed: number }>> {
  const conn = em.getConnection();
  const report = [];
  for (const { table, column, flowId, where } of [
    { table: 'flows', column: 'steps', flowId: 'id', where: 'true' },
    {
      table: 'flow_runs',
      column: 'definition',
      flowId: 'flow_id',
      where: `status not in ('succeeded', 'failed', 'cancelled')`,
    },
  ]) {
    const counts = { table, column: `${column} (http headers)`, resealed: 0, current: 0, failed: 0 };
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows: Array<{ id: string; flow_id: string; steps: FlowStep[] | string }> = await conn.execute(
        `select id, ${flowId} as flow_id, ${column} as steps from ${table}
         where id > ? and ${where} order by id limit ?`,
        [after, BATCH],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      for (const row of rows) {
        const steps: FlowStep[] = typeof row.steps === 'string' ? JSON.parse(row.steps) : row.steps;
        let stale = 0;
        let resealed: FlowStep[];
        try {
          resealed = steps.map((step) => {
            if (!isHttp(step) || !step.headers) return step;
            const headers = { ...step.headers };
            for (const [name, value] of Object.entries(step.headers)) {
              if (box.state(value) === 'current') continue;
              headers[name] = box.seal(
                box.open(value, slot(row.flow_id, step.name, name), { legacyPlaintext: true }),
                slot(row.flow_id, step.name, name),
              );
              stale++;
            }
            return { ...step, headers };
          });
        } catch {
          counts.failed++;
          continue;
        }
        if (stale === 0) {
          counts.current++;
          continue;
        }
        const changed = await conn.execute(
          `update ${table} set ${column} = ? where id = ? and ${column} = ?::jsonb`,
          [JSON.stringify(resealed), row.id, JSON.stringify(steps)],
          'run',
        );
        if ((changed as { affectedRows?: number }).affectedRows) counts.resealed++;
      }
    }
    report.push(counts);
  }
  return report;
}
