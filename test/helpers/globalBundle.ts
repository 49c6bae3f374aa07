import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';

/**
 * The workflow bundle, built once for the whole jest run and handed to every test file through a file named
 * in SVC_TEST_WORKFLOW_BUNDLE: webpack takes about 3 s of CPU per build, and some 80 test files start a
 * worker, so building it per file spent minutes of CI on two cores (docs/testing.md#speed).
 */
const holder = globalThis as typeof globalThis & { svcTestBundlePath?: string };

export async function setupBundle(): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: new DefaultLogger('WARN'),
  });
  const file = path.join(tmpdir(), `svc-test-workflows-${randomUUID()}.js`);
  await writeFile(file, code);
  holder.svcTestBundlePath = file;
  process.env.SVC_TEST_WORKFLOW_BUNDLE = file;
}

export async function teardownBundle(): Promise<void> {
  if (holder.svcTestBundlePath) await rm(holder.svcTestBundlePath, { force: true });
  holder.svcTestBundlePath = undefined;
}
