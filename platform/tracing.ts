import { trace } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** The process's tracing (docs/operations.md#traces), as `startTracing` set it up. */
export interface Tracing {
  /** Where spans go: the worker hands it to the workflows' span sink too. */
  exporter: SpanExporter;
  resource: Resource;
  /** Sends every span ended so far. */
  flush(): Promise<void>;
  /** Flushes, then stops tracing in this process. */
  shutdown(): Promise<void>;
}

/**
 * Traces to an OTLP/HTTP collector at `endpoint` (`OTEL_EXPORTER_OTLP_ENDPOINT`, its `/v1/traces`), as
 * `service`: the process's global tracer provider, W3C trace context, AsyncLocalStorage for the active span.
 * The API's requests get their server span from api/middleware/tracing.ts (named by the declared route, the
 * path without its tokens), so the HTTP instrumentation traces outgoing calls only; PostgreSQL's queries are
 * spans of whatever request or activity makes them. Called once, first thing in a process's `main` (the
 * instrumentations patch modules loaded after them).
 */
export function startTracing(endpoint: string, service: string): Tracing {
  const resource = new Resource({ 'service.name': service });
  const exporter = new OTLPTraceExporter({ url: `${endpoint}/v1/traces` });
  const provider = new NodeTracerProvider({ resource });
  provider.addSpanProcessor(new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 }));
  provider.register();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: () => true }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  return {
    exporter,
    resource,
    flush: () => provider.forceFlush(),
    async shutdown() {
      unregister();
      await provider.shutdown();
      trace.disable();
    },
  };
}
