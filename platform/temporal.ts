import { Client, Connection } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { Config } from './config';
import { temporalDataConverter } from './payloadCodec';

export interface Temporal {
  client: Client;
  /** Resolves when the Temporal frontend answers within `timeoutMs`; rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * Runs Temporal calls with a deadline, so a request fails fast (503 `unavailable`) instead of
   * waiting out the client's own retries when Temporal is down.
   */
  call<T>(fn: () => Promise<T>, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

/**
 * A lazily connected Temporal client: the API starts (and serves /healthz) while Temporal is still
 * coming up, and /readyz reports the truth. Its payloads go through the payload codec (platform/payloadCodec.ts).
 */
export function createTemporal(config: Config['temporal']): Temporal {
  const connection = Connection.lazy({ address: config.address });
  const client = new Client({
    connection,
    namespace: config.namespace,
    dataConverter: temporalDataConverter(config.payloadKeys),
    // the trace of the request that starts, signals or queries a workflow goes on in it (docs/operations.md#traces)
    ...(config.traced ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {}),
  });
  return {
    client,
    async ping(timeoutMs = 2000) {
      await connection.withDeadline(Date.now() + timeoutMs, () =>
        connection.workflowService.describeNamespace({ namespace: config.namespace }),
      );
    },
    call: (fn, timeoutMs = 5000) => connection.withDeadline(Date.now() + timeoutMs, fn),
    close: () => connection.close(),
  };
}
