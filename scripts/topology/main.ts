import path from 'node:path';
import { Topology, topologyPorts } from './apps';

/**
 * `npm run topology` (after scripts/topology.sh has PostgreSQL, moto and Temporal on PostgreSQL up):
 * two APIs, two workers and the entry point, until Ctrl-C. When a process exits on its own, everything
 * stops and the exit code says so, as with `npm run dev`.
 */
async function main(): Promise<number> {
  const dataDir = process.env.SVC_DATA_DIR ?? path.resolve('.data/topology');
  const topology = new Topology(topologyPorts(), path.join(dataDir, 'logs'));
  let stopping = false;
  const stopped = new Promise<number>((resolve) => {
    const stop = (code: number) => {
      if (stopping) return;
      stopping = true;
      console.error('[topology] stopping the APIs, the workers and the entry point');
      topology.stop().then(
        () => resolve(code),
        () => resolve(code || 1),
      );
    };
    process.once('SIGINT', () => stop(0));
    process.once('SIGTERM', () => stop(0));
    topology.start().then(
      () => {
        for (const p of [...topology.apis, ...topology.workers]) {
          void p.exited.then((code) => {
            if (stopping) return;
            console.error(`[topology] ${p.name} exited (${code}); see ${p.logFile}`);
            stop(1);
          });
        }
        console.error(
          [
            '[topology] up:',
            `  entry point   ${topology.entry!.url}   (round-robin over both APIs)`,
            `  api-1         ${topology.apiUrl(0)}`,
            `  api-2         ${topology.apiUrl(1)}`,
            `  workers       worker-1, worker-2 on ${process.env.TEMPORAL_ADDRESS} (task queue ${process.env.TEMPORAL_TASK_QUEUE ?? 'runs'})`,
            `  storage       ${process.env.SVC_STORAGE_URL} at ${process.env.SVC_S3_ENDPOINT}`,
            `  logs          ${topology.logDir}`,
            'Ctrl-C stops everything.',
          ].join('\n'),
        );
      },
      (err: Error) => {
        console.error(`[topology] ${err.message}`);
        stop(1);
      },
    );
  });
  return stopped;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('[topology] failed:', err);
    process.exit(1);
  },
);
