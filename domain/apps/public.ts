import type { EntityManager } from '@mikro-orm/postgresql';
import { App, AppDomain } from '../../db/entities/App';
import { AppRunToken } from '../../db/entities/AppRunToken';
import { File } from '../../db/entities/File';
import { Run } from '../../db/entities/Run';
import { Workspace } from '../../db/entities/Workspace';
import type { PutResult, Storage } from '../../platform/storage/storage';
import { ApiError, errors, type ValidationIssue } from '../errors';
import { safeEqual, sha256Hex } from '../identity/secrets';
import { createRun, type CreateRunDeps } from '../runs/create';
import { requestHash } from '../shared/idempotency/fingerprint';
import { newRunToken, replayedRunToken, submissionKey } from './submissionKeys';
import { claimQuota } from '../quotas/quotas';
import { parseSubmission, type SubmittedFile } from './submission';

/** What an app's public face may show of it: nothing of the workspace beyond these. */
export interface PublicApp {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  form: App['form'];
}

export interface PublicRunStatus {
  runId: string;
  status: Run['status'];
  output: unknown;
  error: { code: string; message: string } | null;
  createdAt: string;
  completedAt: string | null;
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
export const isTerminal = (status: string) => TERMINAL.has(status);

const present = (app: App): PublicApp => ({
  id: app.id,
  slug: app.slug,
  name: app.name,
  description: app.description,
  form: app.form,
});

/** The published app at `/apps/<slug>`. Throws `not_found` for a draft, a paused app or no app at all. */
export async function findPublishedApp(em: EntityManager, slug: string): Promise<PublicApp> {
  const app = await em.findOne(App, { slug, status: 'published' });
  if (!app) throw errors.notFound('App');
  return present(app);
}

/** The published app a verified custom domain serves, or null (docs/api/apps.md#custom-domains). */
export async function findAppByHost(em: EntityManager, hostname: string): Promise<PublicApp | null> {
  const domain = await em.findOne(
    AppDomain,
    { hostname: hostname.toLowerCase(), status: 'verified', app: { status: 'published' } },
    { populate: ['app'] },
  );
  return domain ? present(domain.app) : null;
}

/** An uploaded file of a submission: its bytes are in storage under `id` (the file id to be). */
export interface SubmittedUpload extends SubmittedFile, PutResult {
  filename: string;
  mime: string;
}

/** What a public submission brought: field values, uploaded files, and problems the transport found. */
export interface Submission {
  values: Record<string, unknown>;
  files?: SubmittedUpload[];
  issues?: ValidationIssue[];
}

/** Who submits, for an `Idempotency-Key`: the key as sent and the client it came from (its IP's subject). */
export interface SubmissionKey {
  key: string;
  client: string;
}

/** A started (or, under a key sent before, replayed) app run: its id and the token of its status page. */
export interface StartedAppRun {
  runId: string;
  token: string;
  replayed: boolean;
}

/**
 * Starts a run of the app's agent for a public submission, charged to the app's workspace, with
 * `metadata.appId`; returns the run's id and the random token that alone opens its status page. The
 * workspace's state stays private: running out of credits is `billing.insufficient_credits` without its
 * figures, and an agent that cannot run (deleted, its model gone) makes the app 404.
 * Uploaded files become files of the workspace's library (at its root) in the run's own transaction and
 * the run's `input.fileIds`; a refused submission deletes their bytes, so it leaves no file behind.
 * With an `Idempotency-Key`, the rules of `POST /v1/runs` hold per app and client (docs/api/apps.md#public-pages):
 * the same submission within 24 h is the same run (`replayed`, its files not stored again), another one is 409.
 * Throws `validation_error` for the submission (one issue per field), `conflict` for a key reused.
 */
export async function startAppRun(
  deps: CreateRunDeps & { storage: Storage },
  em: EntityManager,
  slug: string,
  submission: Submission,
  idempotency: SubmissionKey | null = null,
): Promise<StartedAppRun> {
  const files = submission.files ?? [];
  const dropFiles = () => Promise.all(files.map((f) => deps.storage.delete(f.id).catch(() => undefined)));
  try {
    const started = await startRun(deps, em, slug, submission, files, idempotency);
    // A replay's run has its files from the first submission: these bytes are nobody's.
    if (started.replayed) await dropFiles();
    return started;
  } catch (err) {
    // The rows rolled back with the run; the bytes are outside the transaction.
    await dropFiles();
    throw err;
  }
}

async function startRun(
  deps: CreateRunDeps,
  em: EntityManager,
  slug: string,
  submission: Submission,
  files: SubmittedUpload[],
  idempotency: SubmissionKey | null,
): Promise<StartedAppRun> {
  const app = await em.findOne(App, { slug, status: 'published' });
  if (!app) throw errors.notFound('App');
  const input = parseSubmission(app.form, submission.values, files, submission.issues ?? []);
  const ring = deps.config.secretKeys;
  const key = idempotency ? submissionKey(app.id, idempotency.client, idempotency.key) : null;
  // The same submission: its values and its files' names, types and bytes (not the file ids made for it).
  const fingerprint = requestHash({
    values: submission.values,
    files: files.map((f) => ({ field: f.field, filename: f.filename, mime: f.mime, size: f.size, sha256: f.sha256 })),
  });
  const workspaceId = app.workspace.id;
  let token = '';
  let made: { run: Run; created: boolean };
  try {
    made = await createRun(
      deps,
      em,
      { actor: 'app', workspaceId, appId: app.id },
      { agentId: app.agent.id, input, metadata: { appId: app.id } },
      key,
      {
        // The token and the uploaded files commit with the run: a run its submitter could not open, and the
        // app's usage would not count (domain/apps/usage.ts), never exists, nor a file of a refused run.
        withRun: async (tx, created) => {
          token = newRunToken(ring, created.id, key);
          const bytes = files.reduce((sum, f) => sum + f.size, 0);
          await claimQuota(tx, workspaceId, { storageBytes: bytes });
          tx.persist(new AppRunToken(created, tx.getReference(App, app.id), sha256Hex(token)));
          const workspace = tx.getReference(Workspace, workspaceId);
          for (const f of files) {
            const file = new File(workspace, f.filename, f.mime, f.size, f.sha256, f.id);
            file.id = f.id;
            tx.persist(file);
          }
        },
        insertedFileIds: new Set(files.map((f) => f.id)),
        requestHash: fingerprint,
      },
    );
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'billing.insufficient_credits') {
      throw new ApiError(err.code, 'This app cannot take more runs right now');
    }
    if (err.code === 'not_found' || err.code === 'validation_error') throw errors.notFound('App');
    // the workspace's storage figures are not the submitter's to see
    if (err.code === 'conflict' && err.details?.quota) throw errors.conflict('This app cannot take files right now');
    throw err;
  }
  if (made.created) return { runId: made.run.id, token, replayed: false };
  const stored = await em.findOne(AppRunToken, { run: made.run.id, app: app.id });
  const again = stored && key ? replayedRunToken(ring, made.run.id, key, stored.tokenHash) : null;
  if (!again) {
    throw errors.conflict('This Idempotency-Key already started a run whose token cannot be shown again', {
      runId: made.run.id,
    });
  }
  return { runId: made.run.id, token: again, replayed: true };
}

/**
 * What a public page says of a failed run: the code, and a neutral message in place of the run's own,
 * which may carry the workspace's balance or an internal error's text.
 */
function publicErrorMessage(code: string): string {
  return code.startsWith('billing.') ? 'This app cannot take more runs right now' : 'The run did not finish';
}

/**
 * The status and output of a run started through the app, for the holder of its token. Throws `not_found`
 * for a wrong token, a run of another app, or an app that is not published.
 */
export async function appRunStatus(
  em: EntityManager,
  slug: string,
  runId: string,
  token: string,
): Promise<PublicRunStatus> {
  const row = await em.findOne(AppRunToken, { run: runId, app: { slug, status: 'published' } }, { populate: ['run'] });
  if (!row || !safeEqual(row.tokenHash, sha256Hex(token))) throw errors.notFound('Run');
  const run = row.run;
  return {
    runId: run.id,
    status: run.status,
    output: run.output ?? null,
    error: run.error ? { code: run.error.code, message: publicErrorMessage(run.error.code) } : null,
    createdAt: run.createdAt.toISOString(),
    completedAt: run.completedAt?.toISOString() ?? null,
  };
}
