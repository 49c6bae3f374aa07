import { loadConfig } from '../../platform/config';

// The settings of docs/operations.md, read once like every other (README, "Configuration").
describe('operations settings', () => {
  it('reads the metrics, tracing and retention settings; the worker metrics bind to 127.0.0.1 unless told', () => {
    const token = 'm'.repeat(16);
    const c = loadConfig({
      SVC_METRICS_TOKEN: token,
      SVC_WORKER_METRICS_PORT: '9464',
      SVC_TEMPORAL_METRICS_PORT: '9465',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      SVC_RETENTION_DAYS: '30',
    });
    expect(c.observability).toEqual({
      metricsToken: token,
      workerMetrics: { host: '127.0.0.1', port: 9464 },
      temporalMetrics: { host: '127.0.0.1', port: 9465 },
      otlpEndpoint: 'http://collector:4318',
    });
    expect(c.temporal.traced).toBe(true);
    expect(c.retention).toEqual({ days: 30, batchSize: 1000 });
    expect(loadConfig({ SVC_WORKER_METRICS_PORT: '9464', SVC_WORKER_METRICS_HOST: '0.0.0.0' }).observability).toEqual(
      expect.objectContaining({ workerMetrics: { host: '0.0.0.0', port: 9464 } }),
    );
  });

  it('turns each off while unset', () => {
    const c = loadConfig({});
    expect(c.observability).toEqual({
      metricsToken: undefined,
      workerMetrics: undefined,
      temporalMetrics: undefined,
      otlpEndpoint: undefined,
    });
    expect(c.temporal.traced).toBe(false);
    expect(c.retention.days).toBeUndefined();
    // an empty value is unset, as for every optional setting
    const empty = loadConfig({ SVC_RETENTION_DAYS: '', SVC_WORKER_METRICS_PORT: '', OTEL_EXPORTER_OTLP_ENDPOINT: '' });
    expect([empty.retention.days, empty.observability.workerMetrics, empty.observability.otlpEndpoint]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('names the variable of a bad value', () => {
    for (const [name, value] of [
      ['SVC_METRICS_TOKEN', 'short'],
      ['SVC_RETENTION_DAYS', '0'],
      ['SVC_RETENTION_DAYS', 'a week'],
      ['SVC_WORKER_METRICS_PORT', '70000'],
      ['OTEL_EXPORTER_OTLP_ENDPOINT', 'not a url'],
    ]) {
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
    }
  });
});
