import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type ReplayResult } from '@temporalio/worker';
import * as workflows from '../../workflows';
import { historyFromJSON } from './historyJson';

/**
 * Replays every recorded history (test/replay/histories/, made by test/replay/record.ts) against the
 * workflow code as it is now. A change that would make a run in flight take another path on its next
 * workflow task (an activity added, removed or reordered, a different timer or signal wait) fails
 * here with a determinism error: such changes go behind `patched()` (docs/architecture.md, "Changing a
 * workflow"). Every workflow type the worker registers has at least one fixture.
 * Offline: no PostgreSQL, no Temporal server.
 */
const DIR = path.join(__dirname, 'histories');
const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();

describe('workflow replay of recorded histories', () => {
  const results = new Map<string, ReplayResult>();
  const recordedTypes = new Set<string>();

  beforeAll(async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    const workflowBundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      logger: new DefaultLogger('WARN'),
    });
    const histories = fixtures.map((name) => ({
      workflowId: name,
      history: historyFromJSON(readFileSync(path.join(DIR, `${name}.json`), 'utf8')),
    }));
    for (const { history } of histories) {
      const type = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
      if (type) recordedTypes.add(type);
    }
    for await (const result of Worker.runReplayHistories({ workflowBundle }, histories)) {
      results.set(result.workflowId, result);
    }
  }, 120_000);

  it('has a fixture of every workflow type the worker registers', () => {
    expect(Object.keys(workflows).filter((type) => !recordedTypes.has(type))).toEqual([]);
  });

  it.each(fixtures)('replays %s without a determinism error', (name) => {
    const result = results.get(name);
    expect(result).toBeDefined();
    expect(result!.error).toBeUndefined();
  });
});
