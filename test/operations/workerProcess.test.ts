import { freePort } from '../../bench/lib/ports';
import { loadConfig } from '../../platform/config';
import { spawnWorker } from '../helpers/processes';
import { testTaskQueue } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';
import { parseProm, sampleOf } from './promText';

// `npm run worker` as an operator runs it (docs/operations.md#metrics): its own /metrics on 127.0.0.1 and the
// Temporal SDK's exporter on a port of its own.
describe('the worker process', () => {
  it("serves its metrics and the Temporal SDK's on their ports, on 127.0.0.1", async () => {
    const config = loadConfig(process.env);
    // ports below the ephemeral range, each a different test file's start point, so neighbours never collide
    const own = await freePort(23_150);
    const sdk = await freePort(own + 1);
    const worker = await spawnWorker({
      DATABASE_URL: config.databaseUrl,
      TEMPORAL_ADDRESS: config.temporal.address,
      TEMPORAL_TASK_QUEUE: testTaskQueue(),
      SVC_WORKER_METRICS_PORT: String(own),
      SVC_TEMPORAL_METRICS_PORT: String(sdk),
    });
    try {
      const res = await fetch(`http://127.0.0.1:${own}/metrics`);
      expect(res.status).toBe(200);
      const samples = parseProm(await res.text());
      expect(sampleOf(samples, 'svc_process_cpu_seconds_total')).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${own}/other`)).status).toBe(404);
      // the SDK's series appear once its pollers run
      const text = await pollUntil(
        30_000,
        async () =>
          (await fetch(`http://127.0.0.1:${sdk}/metrics`).then(
            (r) => r.text(),
            () => '',
          )) ?? '',
        (t) => t.includes('temporal_worker_task_slots_available'),
        "the Temporal SDK's worker series",
        250,
      );
      expect(text).toContain('temporal_');
      expect(worker.output.join('')).toContain(`"metrics":"http://127.0.0.1:${own}"`);
    } finally {
      worker.kill9();
    }
  }, 120_000);
});
