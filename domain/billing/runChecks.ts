import type { Config } from '../../platform/config';
import type { RunCreator } from '../identity/identity';
import { ApiError } from '../errors';
import { microsToUsd } from '../shared/money';

/**
 * The pre-flight checks of run creation after the agent and file checks (the order of docs/api/runs.md):
 * unverified-session limit (403), key spend cap (402), credits (402). They are parts of the one statement
 * that holds the credits and inserts the run (domain/runs/insertRun.ts): `facts` reads what they count in
 * that statement's snapshot, `pass` admits the run. A count is exact only when the caller's row was locked
 * (`lock`) by an earlier statement of the same transaction: concurrent creates by one caller then take
 * turns, and the snapshot of each counts the runs and holds the earlier ones committed. The credits need
 * no such lock: the statement's conditional update of the balance is re-checked on the row's latest
 * version (docs/api/billing.md#holds).
 */
export interface CallerChecks {
  /** Locks the caller's row; null when nothing is counted without it. */
  lock: Sql | null;
  /** One row: `run_count` (unverified sessions), `cap` and `spent` (API keys), null where not checked. */
  facts: Sql;
  /** A boolean over `facts`: the caller may create the run. */
  pass: Sql;
}

export interface Sql {
  sql: string;
  params: unknown[];
}

/** What `facts` read, as the statement returns them. */
export interface CallerFacts {
  run_count: string | null;
  cap: string | null;
  spent: string | null;
}

const NO_FACTS = 'select null::bigint as run_count, null::bigint as cap, null::bigint as spent';

/**
 * The checks for `identity`. `locked` asks for the exact spend count of an API key (its row locked
 * first); without it a key passes only while it has no cap, and {@link refusal} says `lock` otherwise.
 */
export function callerChecks(identity: RunCreator, config: Config, locked: boolean): CallerChecks {
  if (identity.actor === 'session' && !identity.emailVerified) {
    // Only unverified session accounts are limited (docs/api/billing.md); API keys never are.
    return {
      lock: { sql: 'select 1 from users where id = ? for update', params: [identity.userId] },
      facts: {
        sql: 'select (select count(*) from runs where user_id = ?) as run_count, null::bigint as cap, null::bigint as spent',
        params: [identity.userId],
      },
      pass: { sql: 'run_count < ?', params: [config.unverifiedRunLimit] },
    };
  }
  if (identity.actor === 'api_key') {
    // Month-to-date spend as domain/identity/spend.ts counts it: charges since the first of the month
    // (UTC) plus what the key's unfinished runs hold now.
    const spent = locked
      ? `case when k.monthly_spend_cap_micros is not null then
           (select coalesce(-sum(amount_micros), 0) from ledger_entries
             where kind = 'charge' and api_key_id = x.id
               and created_at >= date_trunc('month', now() at time zone 'utc') at time zone 'utc')
         + (select coalesce(sum(held_micros), 0) from runs where api_key_id = x.id and held_micros > 0) end`
      : 'null::bigint';
    return {
      lock: locked ? { sql: 'select 1 from api_keys where id = ? for update', params: [identity.keyId] } : null,
      facts: {
        sql: `select null::bigint as run_count, k.monthly_spend_cap_micros as cap, ${spent} as spent
                from (select ?::uuid as id) x left join api_keys k on k.id = x.id`,
        params: [identity.keyId],
      },
      pass: { sql: locked ? 'cap is null or spent < cap' : 'cap is null', params: [] },
    };
  }
  return { lock: null, facts: { sql: NO_FACTS, params: [] }, pass: { sql: 'true', params: [] } };
}

/**
 * Why a run the statement did not insert was refused, in the order of docs/api/runs.md: an ApiError;
 * `lock` when the key has a cap and must be counted under its lock; null when every check passed on the
 * statement's snapshot but the balance moved before its update (the caller tries again).
 */
export function refusal(
  identity: RunCreator,
  config: Config,
  facts: CallerFacts,
  locked: boolean,
  required: number,
  balance: number,
): ApiError | 'lock' | null {
  if (facts.run_count !== null && Number(facts.run_count) >= config.unverifiedRunLimit) {
    return verificationRequired(config.unverifiedRunLimit);
  }
  if (identity.actor === 'api_key' && facts.cap !== null) {
    if (!locked) return 'lock';
    const cap = Number(facts.cap);
    const spent = Number(facts.spent);
    if (spent >= cap) return capExceeded(cap, spent);
  }
  return balance < required ? insufficient(required, balance) : null;
}

/** 402 `billing.insufficient_credits`. */
export function insufficient(required: number, available: number): ApiError {
  return new ApiError('billing.insufficient_credits', 'Not enough credits for this run', {
    required: microsToUsd(required),
    available: microsToUsd(available),
  });
}

/** 403 `auth.email_verification_required`: an unverified account has made its `limit` runs. */
export function verificationRequired(limit: number): ApiError {
  return new ApiError(
    'auth.email_verification_required',
    `Verify your e-mail address to create more than ${limit} runs`,
    { limit },
  );
}

/** 402 `billing.spend_cap_exceeded`: the key's month-to-date spend has reached its cap. */
export function capExceeded(cap: number, spent: number): ApiError {
  return new ApiError('billing.spend_cap_exceeded', 'This API key reached its monthly spend cap', {
    cap: microsToUsd(cap),
    spent: microsToUsd(spent),
  });
}
