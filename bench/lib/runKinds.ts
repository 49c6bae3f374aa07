import { createAgent } from '../../test/helpers/live/accounts';
import { expectStatus, request, RunEventStream, waitForTerminal, type SseEvent } from '../../test/helpers/live/http';
import type { BenchContext } from './context';
import { sleep } from './context';
import { untilEveryoneHas, type Receivers } from './receivers';

/** The run kinds the run-cost case (bench/cases/runCost.ts) measures: each sets itself up and makes one unit. */

export interface Kind {
  name: string;
  what: string;
  /** Sets the kind up in its workspace; returns one unit of work (a run, a turn), run `i` of its slot. */
  setup(ctx: BenchContext, ws: Account, receivers: Receivers): Promise<(slot: number) => Promise<void>>;
}

export interface Account {
  id: string;
  auth: () => Record<string, string>;
}

const status = (s: string) => (e: SseEvent) => e.event === 'run.status' && e.data?.status === s;

export const KINDS: Kind[] = [
  {
    name: 'echo',
    what: '`builtin/echo` run, no gate: `POST /v1/runs`, its event stream to `succeeded`',
    async setup(ctx, ws) {
      const agentId = await createAgent(ctx.apiUrl, ws.auth().authorization);
      return async () => {
        const run = await expectStatus(201, `${ctx.apiUrl}/v1/runs`, {
          headers: ws.auth(),
          json: { agentId, input: { text: 'cost' } },
        });
        await waitForTerminal(ctx.apiUrl, run.id, ws.auth());
      };
    },
  },
  {
    name: 'approval',
    what: 'scripted run with an output approval: stream to `needs_approval`, `POST /approve`, stream to `succeeded`',
    async setup(ctx, ws) {
      const agentId = await createAgent(ctx.apiUrl, ws.auth().authorization, {
        presetId: 'scripted',
        settings: { approval: 'before_output' },
      });
      return async () => {
        const run = await expectStatus(201, `${ctx.apiUrl}/v1/runs`, {
          headers: ws.auth(),
          json: { agentId, input: { script: [{ final: { ok: true } }] } },
        });
        const stream = await RunEventStream.open(ctx.apiUrl, run.id, ws.auth());
        try {
          const asked = await stream.next(status('needs_approval'));
          await expectStatus(202, `${ctx.apiUrl}/v1/runs/${run.id}/approve`, {
            headers: ws.auth(),
            json: { approved: true, actionId: asked.data.pendingAction?.id },
          });
          await stream.next(status('succeeded'));
        } finally {
          stream.close();
        }
      };
    },
  },
  {
    name: 'webhook',
    what: 'echo run with one `run.succeeded` subscription: stream to `succeeded`, then its first attempt at a receiver on 127.0.0.1',
    async setup(ctx, ws, receivers) {
      const agentId = await createAgent(ctx.apiUrl, ws.auth().authorization);
      await expectStatus(201, `${ctx.apiUrl}/v1/webhooks`, {
        headers: ws.auth(),
        json: { url: receivers.url(0), events: ['run.succeeded'], secret: 'bench-secret-0123456789' },
      });
      return async () => {
        const run = await expectStatus(201, `${ctx.apiUrl}/v1/runs`, {
          headers: ws.auth(),
          json: { agentId, input: { text: 'cost' } },
        });
        await waitForTerminal(ctx.apiUrl, run.id, ws.auth());
        await untilEveryoneHas(receivers, run.id, 1);
      };
    },
  },
  {
    name: 'conversation',
    what: 'one tutor turn (`POST /v1/tutor/sessions/{id}/messages`, `builtin/tutor`), sessions of 10 turns, their opening included',
    async setup(ctx, ws) {
      const agentId = await createAgent(ctx.apiUrl, ws.auth().authorization, { presetId: 'tutor' });
      const sessions: Array<{ id: string; turns: number } | undefined> = [];
      return async (slot) => {
        let session = sessions[slot];
        if (!session || session.turns >= 10) {
          const opened = await expectStatus(201, `${ctx.apiUrl}/v1/tutor/sessions`, {
            headers: ws.auth(),
            json: { agentId, topic: 'capacity planning' },
          });
          session = sessions[slot] = { id: opened.id, turns: 0 };
        }
        session.turns++;
        await expectStatus(200, `${ctx.apiUrl}/v1/tutor/sessions/${session.id}/messages`, {
          headers: ws.auth(),
          json: { text: `turn ${session.turns}` },
        });
      };
    },
  },
  {
    name: 'flow',
    what: 'manual flow of two steps (an echo agent run, then an `http` POST to a receiver on 127.0.0.1): its POST arrives, then `GET /v1/flow-runs/{id}` until `succeeded`',
    async setup(ctx, ws, receivers) {
      const agentId = await createAgent(ctx.apiUrl, ws.auth().authorization);
      const flow = await expectStatus(201, `${ctx.apiUrl}/v1/flows`, {
        headers: ws.auth(),
        json: {
          name: 'cost',
          trigger: { type: 'manual' },
          steps: [
            { name: 'draft', type: 'agent', agentId, input: { text: '{{trigger.text}}' } },
            // the receivers record a first attempt by this header and the body's `run.id`
            {
              name: 'notify',
              type: 'http',
              method: 'POST',
              url: receivers.url(1),
              headers: { 'X-SVC-Attempt': '1' },
              body: { run: { id: '{{trigger.id}}' } },
            },
          ],
        },
      });
      let n = 0;
      return async () => {
        const id = `flow-${n++}`;
        const run = await expectStatus(202, `${ctx.apiUrl}/v1/flows/${flow.id}/run`, {
          headers: ws.auth(),
          json: { input: { text: 'cost', id } },
        });
        // waiting at the receiver costs the API nothing; then the few reads a client would make
        const deadline = Date.now() + 60_000;
        while (!receivers.firstAttempt.has(`1:${id}`)) {
          if (Date.now() > deadline) throw new Error(`flow run ${run.id} never posted`);
          await sleep(20);
        }
        for (;;) {
          const res = await request(`${ctx.apiUrl}/v1/flow-runs/${run.id}`, { headers: ws.auth() });
          if (res.body?.status === 'succeeded') return;
          if (res.status !== 200 || ['failed', 'cancelled'].includes(res.body?.status) || Date.now() > deadline) {
            throw new Error(`flow run ${run.id}: ${res.status} ${JSON.stringify(res.body)}`);
          }
          await sleep(50);
        }
      };
    },
  },
];
