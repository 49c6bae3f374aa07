import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { temporal as proto } from '@temporalio/proto';
import { workflowBundle } from '../helpers/worker';

/**
 * Histories written by the run workflow before it took Temporal's own cancellation (the API sent a
 * `cancel` signal then): today's workflow code must replay them without a determinism error, both a
 * run that finished and one still waiting at a gate when the new code takes it over. The fixtures are
 * those histories as binary protobuf (base64), written by the workflow code of commit 1338b0e.
 */
const history = (name: string) =>
  proto.api.history.v1.History.decode(
    Buffer.from(readFileSync(path.join(__dirname, 'fixtures', `${name}.history.b64`), 'utf8'), 'base64'),
  );

describe('run workflow replay', () => {
  it.each(['run-cancelled-by-signal', 'run-waiting-at-gate'])(
    'replays %s',
    async (name) => {
      await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history(name));
    },
    60_000,
  );
});
