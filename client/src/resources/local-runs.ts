/** `client.localRuns`: a local runner reports the runs it executed itself (scope `runner:run`). */
import type { CallOptions, HttpClient } from '../http.js';
import type { LocalRunReport, LocalRunReportParams } from '../local-run-types.js';

/**
 * Runs executed outside the service: a runner reads `agents.definition(id)`, runs the agent itself and reports the
 * finished runs here. The batches are read back with `runs.localBatches()` and `runs.localBatch(batchId)`.
 */
export class LocalRuns {
  constructor(private readonly http: HttpClient) {}

  /**
   * Records 1..100 finished runs of an agent as one batch, at the agent's current version: all of them or, on any
   * error, none. They read like any run afterwards (`runs.get`) and send their webhooks; they are not charged.
   * Like every POST it carries an `Idempotency-Key`, so a retried report never records the batch twice.
   * @throws {ValidationError} for a malformed run or `startedAt` after `completedAt`; {@link NotFoundError} for an
   * unknown agent; {@link PermissionError} for a key without `runner:run`
   */
  report(params: LocalRunReportParams, options?: CallOptions): Promise<LocalRunReport> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/local-runs', json: params });
  }
}
