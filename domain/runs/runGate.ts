import type { EntityManager } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import type { Config } from '../../platform/config';
import { holdForCreate } from '../billing/holds';
import { capExceeded, verificationRequired } from '../billing/runChecks';
import { spentThisMonthMicros } from '../identity/spend';
import type { RunCreator } from '../identity/identity';
import { appendRunEvent } from './events';
import { serializeRun } from './presenters';
import { observed } from '../shared/observations';
import { TERMINAL_STATUSES } from '../../workflows/messages';

/**
 * The one gate every new run passes (docs/api/billing.md#who-pays): whoever makes it (`POST /v1/runs`, a
 * flow's agent step, a conversation or tutor turn, a copilot turn, an eval case, an app submission, a
 * local runner's report), the run is admitted on behalf of a principal by the same checks, in the
 * transaction that inserts it: the unverified-account limit (users), the monthly spend cap (keys), the
 * credit hold (always; never overdrawn). The run row records the principal (`apiKeyId`, `userId`), so a
 * key's spend and a user's run count include the runs made for them later by the worker. This file and
 * its one-statement form for `POST /v1/runs` (insertRun.ts) are the only places that insert runs; a test
 * in test/architecture holds that.
 */

/** Why a run is made on nobody's behalf: the workspace pays, and no cap or account limit applies. */
export type AnonymousReason =
  /** A public app's submission by a visitor without an account. */
  | 'public_app'
  /** A message from outside the service (a phone call, a WhatsApp contact). */
  | 'inbound_message'
  /** A row made before its principal was kept (a flow, a flow run or a message from then): as it was then. */
  | 'unrecorded';

/** On whose behalf a run is made: a key, a session's user, or nobody (the workspace alone). */
export type OnBehalfOf =
  | { kind: 'key'; workspaceId: string; keyId: string }
  | { kind: 'user'; workspaceId: string; userId: string }
  | { kind: 'anonymous'; workspaceId: string; reason: AnonymousReason };

/** The principal of an API request. */
export function onBehalfOfCaller(caller: RunCreator): OnBehalfOf {
  if (caller.actor === 'api_key') return { kind: 'key', workspaceId: caller.workspaceId, keyId: caller.keyId };
  if (caller.actor === 'session') return { kind: 'user', workspaceId: caller.workspaceId, userId: caller.userId };
  return { kind: 'anonymous', workspaceId: caller.workspaceId, reason: 'public_app' };
}

/** The principal a row kept (`apiKeyId`, `userId`, as {@link principalColumns} wrote them); `reason` when none. */
export function onBehalfOfRow(
  workspaceId: string,
  row: { apiKeyId: string | null; userId: string | null },
  reason: AnonymousReason,
): OnBehalfOf {
  if (row.apiKeyId) return { kind: 'key', workspaceId, keyId: row.apiKeyId };
  if (row.userId) return { kind: 'user', workspaceId, userId: row.userId };
  return { kind: 'anonymous', workspaceId, reason };
}

/** The columns that record a principal on a row (a run, a flow, a flow run, a user message). */
export function principalColumns(who: OnBehalfOf): { apiKeyId: string | null; userId: string | null } {
  return {
    apiKeyId: who.kind === 'key' ? who.keyId : null,
    userId: who.kind === 'user' ? who.userId : null,
  };
}

/** What a new run is made of; everything else starts as a queued run's. */
export interface RunDraft {
  agentId: string;
  agentVersion: number;
  input: Record<string, unknown>;
  metadata: Record<string, unknown>;
  idempotencyKey?: string | null;
  requestHash?: string | null;
}

/** A run of `draft` for `who`, not yet inserted: only the gate makes one. */
export function draftRun(who: OnBehalfOf, draft: RunDraft): Run {
  const run = new Run(who.workspaceId, draft.agentId, draft.agentVersion, draft.input, draft.metadata);
  Object.assign(run, principalColumns(who));
  run.idempotencyKey = draft.idempotencyKey ?? null;
  run.requestHash = draft.requestHash ?? null;
  return run;
}

export type GateConfig = Pick<Config, 'unverifiedRunLimit'>;

/**
 * Admits and inserts a run that the worker starts itself (a flow's agent step, a turn, an eval case): in
 * one transaction the principal's checks, the hold of `requiredMicros`, the run, its first event and the
 * rows of `withRun`. Throws 403 `auth.email_verification_required`, 402 `billing.spend_cap_exceeded`,
 * 402 `billing.insufficient_credits` (nothing written), or the unique violation of a second run under
 * one idempotency key.
 */
export async function admitRun(
  em: EntityManager,
  config: GateConfig,
  who: OnBehalfOf,
  draft: RunDraft,
  requiredMicros: number,
  withRun?: (tx: EntityManager, run: Run) => void,
): Promise<Run> {
  const run = draftRun(who, draft);
  await em.transactional(async (tx) => {
    await checkPrincipal(tx, config, who, 1);
    await holdForCreate(tx, run, requiredMicros);
    tx.persist(run);
    withRun?.(tx, run);
    await tx.flush();
    await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
  });
  observed.runCreated('worker');
  return run;
}

/**
 * Records runs a local runner executed and reported (docs/api/runs.md#local-runs): they hold and cost
 * nothing, so only the unverified limit applies, for all of them at once. `fill` sets each run's outcome;
 * `after` writes what goes with them in the same transaction.
 */
export async function recordReportedRuns(
  em: EntityManager,
  config: GateConfig,
  who: OnBehalfOf,
  drafts: Array<{ draft: RunDraft; fill: (run: Run) => void }>,
  after: (tx: EntityManager, runs: Run[]) => Promise<void>,
): Promise<Run[]> {
  const runs = drafts.map(({ draft, fill }) => {
    const run = draftRun(who, draft);
    run.origin = 'local';
    fill(run);
    return run;
  });
  await em.transactional(async (tx) => {
    if (who.kind === 'user') await checkUnverified(tx, config, who.userId, runs.length);
    tx.persist(runs);
    await tx.flush();
    await after(tx, runs);
  });
  for (const run of runs) {
    observed.runCreated('local');
    if (TERMINAL_STATUSES.includes(run.status)) observed.runFinished(run.status);
  }
  return runs;
}

/**
 * The principal's checks in `tx`, the transaction that inserts the run: the user's or key's row is locked
 * first, so concurrent creates for one principal take turns and each counts what the earlier ones
 * committed (runs, holds, charges).
 */
async function checkPrincipal(tx: EntityManager, config: GateConfig, who: OnBehalfOf, runs: number): Promise<void> {
  if (who.kind === 'user') await checkUnverified(tx, config, who.userId, runs);
  if (who.kind === 'key') {
    const [key] = await tx.execute<Array<{ cap: string | null }>>(
      'select monthly_spend_cap_micros as cap from api_keys where id = ? for update',
      [who.keyId],
    );
    if (key && key.cap !== null) {
      const spent = (await spentThisMonthMicros(tx, [who.keyId])).get(who.keyId) ?? 0;
      if (spent >= Number(key.cap)) throw capExceeded(Number(key.cap), spent);
    }
  }
}

/** A user whose e-mail is not verified may have `unverifiedRunLimit` runs in all (docs/api/billing.md). */
async function checkUnverified(tx: EntityManager, config: GateConfig, userId: string, adding: number): Promise<void> {
  const [user] = await tx.execute<Array<{ verified: boolean }>>(
    'select email_verified_at is not null as verified from users where id = ? for update',
    [userId],
  );
  if (!user || user.verified) return;
  const [{ count }] = await tx.execute<Array<{ count: string }>>('select count(*) from runs where user_id = ?', [
    userId,
  ]);
  if (Number(count) + adding > config.unverifiedRunLimit) throw verificationRequired(config.unverifiedRunLimit);
}
