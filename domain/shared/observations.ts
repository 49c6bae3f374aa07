/**
 * What the domain tells an operator's instruments (docs/operations.md#metrics), without knowing them: the
 * composition roots (api/app.ts, worker/main.ts) register an observer that counts into the process's
 * metrics registry (platform/metrics/), and the domain reports through `observed`. With no observer
 * registered a report costs a loop over an empty set. Observers must not throw; a report never fails the
 * operation it reports.
 */
export interface Observer {
  /** A run was admitted (its row committed), by where it came from (`api`, `app`, `flow`, …). */
  runCreated?(origin: string): void;
  /** A run reached a terminal status (the write that moved it committed). */
  runFinished?(status: string): void;
  /** A gate was answered `seconds` after it opened, by the gate's kind (`input`, `approval`, `review`). */
  gateAnswered?(gate: string, seconds: number): void;
  /** One signed delivery attempt (`webhook_deliveries` or `output_deliveries`) took `seconds`. */
  deliveryAttempt?(log: string, outcome: 'delivered' | 'failed', seconds: number): void;
}

const observers = new Set<Observer>();

/** Registers `observer` for this process; returns its removal (an app or worker that closes calls it). */
export function registerObserver(observer: Observer): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** Whether anyone listens: a report that costs a query is made only then. */
export function isObserved(): boolean {
  return observers.size > 0;
}

function report<K extends keyof Observer>(kind: K, ...args: Parameters<NonNullable<Observer[K]>>): void {
  for (const o of observers) {
    try {
      (o[kind] as ((...a: typeof args) => void) | undefined)?.(...args);
    } catch {
      // an instrument's failure is never the operation's
    }
  }
}

/** The reports the domain makes; each is a no-op with no observer. */
export const observed = {
  runCreated: (origin: string) => report('runCreated', origin),
  runFinished: (status: string) => report('runFinished', status),
  gateAnswered: (gate: string, seconds: number) => report('gateAnswered', gate, seconds),
  deliveryAttempt: (log: string, outcome: 'delivered' | 'failed', seconds: number) =>
    report('deliveryAttempt', log, outcome, seconds),
};
