import * as proto from '@temporalio/proto';
import { runWorkflowId } from '../../workflows/messages';
import { createAgent } from '../../test/helpers/live/accounts';
import { expectStatus, waitForTerminal } from '../../test/helpers/live/http';
import { fmt, ratio, table } from '../lib/stats';
import type { BenchContext, CaseResult } from '../lib/context';

/** Model turns per run: a short run and a long one. */
const LEVELS = [10, 100];
/** Per-turn time at the long run ÷ at the short one, at most (reported, never asserted). */
const TARGET_RATIO = 1.2;

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * The script of a run of `turns` model turns: every turn but the last calls a tool, the last answers.
 * The catalogue has no tool without I/O, so each call is `http_request` without a URL, which the tool
 * refuses before any network access: its step is stored (running, then failed) and the model gets the
 * error as the call's result, the same two activities and writes as a call that succeeds
 * (domain/runs/execution.ts, runTool), with nothing outside the service in the time.
 */
export const turnsScript = (turns: number) => [
  ...Array.from({ length: turns - 1 }, () => ({ tool: 'http_request', args: {} })),
  { final: { turns } },
];

interface RunSample {
  /** `POST /v1/runs` → `succeeded` on its event stream. */
  endToEndMs: number;
  /** The workflow's start → close in Temporal. */
  workflowMs: number;
  historyEvents: number;
  historyBytes: number;
}

/** The run's Temporal history: its event count and its size as Temporal stores it (protobuf). */
async function historySize(ctx: BenchContext, runId: string) {
  const history = await ctx.client.workflow.getHandle(runWorkflowId(runId)).fetchHistory();
  return {
    events: history.events?.length ?? 0,
    bytes: proto.temporal.api.history.v1.History.encode(history).finish().byteLength,
  };
}

async function oneRun(ctx: BenchContext, agentId: string, turns: number): Promise<RunSample> {
  const t0 = performance.now();
  const run = await expectStatus(201, `${ctx.apiUrl}/v1/runs`, {
    headers: { authorization: ctx.pool.next() },
    json: { agentId, input: { script: turnsScript(turns) } },
  });
  const done = await waitForTerminal(ctx.apiUrl, run.id, { authorization: ctx.pool.next() }, 600_000);
  const endToEndMs = performance.now() - t0;
  if (done.status !== 'succeeded') throw new Error(`run ${run.id} ended ${done.status}: ${JSON.stringify(done.error)}`);
  const handle = ctx.client.workflow.getHandle(runWorkflowId(run.id));
  await handle.result();
  const info = await handle.describe();
  const history = await historySize(ctx, run.id);
  return {
    endToEndMs,
    workflowMs: info.closeTime!.getTime() - info.startTime.getTime(),
    historyEvents: history.events,
    historyBytes: history.bytes,
  };
}

/**
 * Case 8: the scale of one run. Scripted runs (`builtin/scripted`) of 10 and of 100 model turns, one run
 * at a time, alternating, `BENCH_TURNS_RUNS` of each: the time from `POST /v1/runs` to `succeeded`, per
 * turn, and the run's Temporal history (events and bytes). A run's cost per turn should not grow with its
 * length (the workflow passes ids and indexes, docs/api/runs.md): per-turn time at 100 ÷ at 10 ≤ 1.2×.
 */
export async function turnsCase(ctx: BenchContext): Promise<CaseResult> {
  const runs = Number(process.env.BENCH_TURNS_RUNS ?? 5);
  const maxTurns = Math.max(...LEVELS);
  await ctx.pool.ensure(2 * (runs + 1) * LEVELS.length + 10);
  const agentId = await createAgent(ctx.apiUrl, ctx.pool.next(), {
    presetId: 'scripted',
    settings: { maxSteps: maxTurns },
  });
  // one short run first, thrown away: this agent's first run and the workflow cache
  await oneRun(ctx, agentId, LEVELS[0]);
  const samples = new Map<number, RunSample[]>(LEVELS.map((t) => [t, []]));
  for (let i = 0; i < runs; i++) {
    // alternating, so that a machine getting busier weighs on both lengths alike
    for (const turns of LEVELS) samples.get(turns)!.push(await oneRun(ctx, agentId, turns));
    console.error(`  turns: round ${i + 1}/${runs} done`);
  }

  const levels = LEVELS.map((turns) => {
    const s = samples.get(turns)!;
    const endToEndMs = median(s.map((r) => r.endToEndMs));
    const historyBytes = median(s.map((r) => r.historyBytes));
    return {
      turns,
      runs: s.length,
      endToEndMs,
      perTurnMs: endToEndMs / turns,
      workflowMs: median(s.map((r) => r.workflowMs)),
      historyEvents: median(s.map((r) => r.historyEvents)),
      historyBytes,
      historyBytesPerTurn: historyBytes / turns,
      samples: s,
    };
  });
  const [short, long] = [levels[0], levels[levels.length - 1]];
  const perTurnRatio = ratio(long.perTurnMs, short.perTurnMs);
  const verdict = perTurnRatio <= TARGET_RATIO ? 'within' : '**over**';
  const markdown = [
    `### 8. One run's scale: ${LEVELS.join(' vs ')} model turns (${runs} runs each, one at a time, medians)`,
    '',
    'Each turn but the last calls a tool (`http_request` refused before any network access), the last answers; end to end = `POST /v1/runs` → `succeeded` on the event stream; workflow = its Temporal execution, start → close.',
    '',
    table(
      [
        'turns',
        'runs',
        'end to end ms',
        'per turn ms',
        'workflow ms',
        'history events',
        'history bytes',
        'bytes per turn',
      ],
      levels.map((l) => [
        l.turns,
        l.runs,
        l.endToEndMs,
        l.perTurnMs,
        l.workflowMs,
        l.historyEvents,
        l.historyBytes,
        l.historyBytesPerTurn,
      ]),
    ),
    '',
    `Per-turn time at ${long.turns} ÷ at ${short.turns}: **${fmt(perTurnRatio, 2)}×** (target ≤ ${TARGET_RATIO}×: ${verdict}).`,
  ].join('\n');
  return { title: 'turns', markdown, data: { levels, perTurnRatio, targetRatio: TARGET_RATIO } };
}
