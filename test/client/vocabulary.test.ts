/**
 * The words the service, the client package and the console share: run statuses, flow run and step statuses,
 * scopes and webhook event kinds. The client states them for its users; the console imports the client's (console/src/types.ts), so
 * these checks hold all three to the service's own definitions, and a console file that spells out a list of
 * its own again fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FLOW_RUN_STATUSES,
  FLOW_RUN_TERMINAL_STATUSES,
  FLOW_STEP_STATUSES,
  PAUSED_STATUSES,
  RUN_STATUSES,
  SCOPES,
  TERMINAL_STATUSES,
  WEBHOOK_EVENTS,
} from '../../client/src/index.js';
import { flowRunOut } from '../../api/schemas/flows';
import { WEBHOOK_EVENTS as SERVICE_EVENTS } from '../../db/entities/Webhook';
import { SCOPES as SERVICE_SCOPES } from '../../domain/identity/scopes';
import {
  FLOW_RUN_STATUSES as SERVICE_FLOW_RUN_STATUSES,
  FLOW_RUN_TERMINAL as SERVICE_FLOW_RUN_TERMINAL,
} from '../../workflows/flowMessages';
import { RUN_STATUSES as SERVICE_STATUSES, TERMINAL_STATUSES as SERVICE_TERMINAL } from '../../workflows/messages';

const sorted = (values: readonly string[]) => [...values].sort();

function consoleSources(dir = join(__dirname, '../../console/src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? consoleSources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * Files that hold four or more of `words` in a row, quoted and comma-separated: a list kept by hand (a rule that
 * names two or three, such as the member role's writes, is not a copy of the list).
 */
function filesListing(files: { path: string; text: string }[], words: readonly string[]): string[] {
  const word = `(?:${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
  const quoted = `['"]${word}['"]`;
  const list = new RegExp(`${quoted}(?:,\\s*${quoted}){3}`);
  return files.filter(({ text }) => list.test(text)).map(({ path }) => path);
}

describe('shared vocabulary', () => {
  it("the client's run statuses are the service's", () => {
    expect(sorted(RUN_STATUSES)).toEqual(sorted(SERVICE_STATUSES));
    expect(sorted(TERMINAL_STATUSES)).toEqual(sorted(SERVICE_TERMINAL));
    // a run waits for a person in exactly the statuses named after the gate it waits at
    expect(sorted(PAUSED_STATUSES)).toEqual(sorted(SERVICE_STATUSES.filter((s) => s.startsWith('needs_'))));
  });

  it("the client's flow run and step statuses are the service's", () => {
    expect(sorted(FLOW_RUN_STATUSES)).toEqual(sorted(SERVICE_FLOW_RUN_STATUSES));
    expect(sorted(FLOW_RUN_TERMINAL_STATUSES)).toEqual(sorted(SERVICE_FLOW_RUN_TERMINAL));
    expect(sorted(FLOW_STEP_STATUSES)).toEqual(sorted(flowRunOut.shape.steps.element.shape.status.options));
  });

  it("the client's scopes are the service's", () => {
    expect(sorted(SCOPES)).toEqual(sorted(SERVICE_SCOPES));
  });

  it("the client's webhook event kinds are the service's", () => {
    expect(sorted(WEBHOOK_EVENTS)).toEqual(sorted(SERVICE_EVENTS));
  });

  it('the console keeps no list of its own (it imports the client package)', () => {
    const files = consoleSources().map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(files.length).toBeGreaterThan(10);
    for (const words of [RUN_STATUSES, FLOW_RUN_STATUSES, FLOW_STEP_STATUSES, SCOPES, WEBHOOK_EVENTS])
      expect(filesListing(files, words)).toEqual([]);
  });

  it('finds a planted copy', () => {
    const planted = { path: 'planted.ts', text: "const S = ['queued', 'running', 'succeeded', 'failed'];" };
    expect(filesListing([planted], RUN_STATUSES)).toEqual(['planted.ts']);
  });
});
