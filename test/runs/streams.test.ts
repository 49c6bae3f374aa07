import { connect, type Socket } from 'node:net';
import { loadConfig } from '../../platform/config';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { pollUntil } from '../helpers/poll';
import { readToEnd } from '../helpers/streamReader';
import { startRunStack, type RunningWorker } from '../helpers/worker';

const CAP = 3;

// Open event streams are bounded (docs/api/limits.md): per workspace, by the credential's life, by the reader's pace.
describe('run event streams', () => {
  let h: Harness;
  let worker: RunningWorker;
  let owner: Account;
  let auth: Record<string, string>;

  beforeAll(async () => {
    ({ h, worker } = await startRunStack({ maxStreams: CAP }));
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:read', 'agents:write']));
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
  });

  /** A scripted run parked in needs_input: its stream stays open until something ends it. */
  async function waitingRun(headers = auth): Promise<string> {
    const agent = await createAgent(h, headers, { presetId: 'scripted' });
    const run = await createRun(h, headers, { agentId: agent.id, input: { script: [{ ask: 'q?' }, { final: {} }] } });
    await waitForStatus(h, headers, run.id, 'needs_input');
    return run.id;
  }

  function open(runId: string, headers: Record<string, string>) {
    const abort = new AbortController();
    const res = h.request(`/v1/runs/${runId}/events`, { headers, signal: abort.signal });
    return { res, abort };
  }

  it('defaults SVC_MAX_STREAMS to 20', () => {
    expect(loadConfig({ ...process.env, SVC_MAX_STREAMS: undefined }).maxStreams).toBe(20);
  });

  it('refuses the stream over the cap with 429 rate_limited and frees the slot when one closes', async () => {
    const runId = await waitingRun();
    const streams = Array.from({ length: CAP }, () => open(runId, auth));
    try {
      for (const s of streams) expect((await s.res).status).toBe(200);

      const over = await h.request(`/v1/runs/${runId}/events`, { headers: auth });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await over.json()).error).toMatchObject({ code: 'rate_limited', message: 'Rate limit exceeded' });

      // another workspace has its own allowance
      const stranger = await signUp(h);
      const other = bearer(await createKey(h, stranger, ['runs:read', 'runs:write', 'agents:read', 'agents:write']));
      const theirs = open(await waitingRun(other), other);
      expect((await theirs.res).status).toBe(200);
      theirs.abort.abort();

      // closing one stream gives its slot back
      streams[0].abort.abort();
      const again = await pollUntil(
        10_000,
        async () => {
          const attempt = open(runId, auth);
          const res = await attempt.res;
          if (res.status === 200) attempt.abort.abort();
          else await res.body?.cancel();
          return res.status;
        },
        (status) => status === 200,
        'a stream in the slot given back',
        100,
      );
      expect(again).toBe(200);
    } finally {
      for (const s of streams) s.abort.abort();
    }
  });

  it('ends a stream within a few seconds of its key being revoked', async () => {
    const runId = await waitingRun();
    const key = await createKey(h, owner, ['runs:read'], 'stream key');
    const { apiKeys } = (await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json()) as {
      apiKeys: Array<{ id: string; name: string }>;
    };
    const keyId = apiKeys.find((k) => k.name === 'stream key')!.id;
    const { res, abort } = open(runId, bearer(key));
    try {
      const stream = await res;
      expect(stream.status).toBe(200);
      const revoke = await h.request(`/v1/api-keys/${keyId}`, {
        method: 'DELETE',
        headers: { cookie: owner.cookie },
      });
      expect(revoke.status).toBe(204);
      // it ends by itself, well before this bound
      expect(await readToEnd(stream, 8_000)).toContain('"status":"needs_input"');
      // the slot was given back too: the cap's worth opens again
      const more = Array.from({ length: CAP }, () => open(runId, auth));
      for (const s of more) expect((await s.res).status).toBe(200);
      for (const s of more) s.abort.abort();
    } finally {
      abort.abort();
    }
  });

  it('drops a reader that stops reading instead of buffering its events, and frees its slot', async () => {
    const runId = await waitingRun();
    // ~20 MiB of stored events: more than the loopback socket buffers on both ends can hold
    await h.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into run_events (run_id, type, data)
         select ?, 'run.step', jsonb_build_object('pad', repeat('x', 65536)) from generate_series(1, 320)`,
        [runId],
      );
    const { port } = new URL(h.url);
    const sockets: Socket[] = [];
    try {
      const statusLines: Promise<string>[] = [];
      for (let i = 0; i < CAP; i++) {
        const socket = connect(Number(port), '127.0.0.1');
        sockets.push(socket);
        socket.on('error', () => undefined);
        // The first chunk carries the status line: once it is read, the reader holds its slot. Only then does
        // it stop reading (the kernel's receive window closes, the server's writes back up); a probe sent
        // before every reader had its slot could take one and leave a reader refused.
        statusLines.push(
          new Promise((resolve) =>
            socket.once('data', (chunk: Buffer) => {
              socket.pause();
              resolve(chunk.toString('latin1').split('\r\n', 1)[0]);
            }),
          ),
        );
        socket.write(
          `GET /v1/runs/${runId}/events HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\n\r\n`,
        );
      }
      expect(await Promise.all(statusLines)).toEqual(Array(CAP).fill('HTTP/1.1 200 OK'));
      // all three hold their slots while the server waits for them to read (a probe that still finds one
      // free gives it straight back)
      const full = await pollUntil(
        10_000,
        async () => {
          const attempt = open(runId, auth);
          const res = await attempt.res;
          attempt.abort.abort();
          return res.status;
        },
        (status) => status === 429,
        'the slots held by the silent readers',
        200,
      );
      expect(full).toBe(429);
      // within the slow-reader timeout (10 s) they are dropped and their slots come back
      const small = await waitingRun();
      const status = await pollUntil(
        20_000,
        async () => {
          const attempt = open(small, auth);
          const res = await attempt.res;
          attempt.abort.abort();
          return res.status;
        },
        (s) => s === 200,
        'a slot freed by dropping the slow readers',
        500,
      );
      expect(status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 40_000);

  it('ends a stream within a few seconds of its session signing out', async () => {
    const runId = await waitingRun();
    const user = { cookie: owner.cookie };
    // a second session of the same user, so signing it out leaves the owner's own cookie valid
    const signIn = await h.request('/v1/console/auth/sign-in', {
      method: 'POST',
      json: { email: owner.email, password: owner.password },
    });
    expect(signIn.status).toBe(200);
    const cookie = /svc_session=[^;]*/.exec(signIn.headers.get('set-cookie') ?? '')![0];
    const { res, abort } = open(runId, { cookie, 'x-workspace-id': owner.workspaceId });
    try {
      const stream = await res;
      expect(stream.status).toBe(200);
      const out = await h.request('/v1/console/auth/sign-out', { method: 'POST', headers: { cookie } });
      expect(out.status).toBe(204);
      expect(await readToEnd(stream, 8_000)).toContain('"status":"needs_input"');
      expect((await h.request('/v1/console/me', { headers: user })).status).toBe(200);
    } finally {
      abort.abort();
    }
  });
});
