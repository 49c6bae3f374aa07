/**
 * Every workflow the service starts is one an operator can find in Temporal UI by workspace
 * (docs/architecture.md, "What a workflow carries"): each start in the source (a client's `workflow.start` or
 * `signalWithStart`, a workflow's `startChild` or `executeChild`, a schedule's `create`) passes
 * `typedSearchAttributes` with `SvcWorkspaceId`. Checked over the syntax tree, so a start written over several lines counts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { ROOT, sourceFiles } from './importGraph';

const STARTING_DIRS = ['api', 'activities', 'domain', 'workflows', 'worker'];

/** Files whose starts belong to no workspace, and why. */
const NO_WORKSPACE: Record<string, string> = {
  'domain/retention/schedule.ts': 'the retention sweep goes over every workspace (docs/operations.md#retention)',
};

/** Whether a call starts a workflow: `….workflow.start(…)`, `startChild(…)`, `….schedule.create(…)` and kin. */
function startsWorkflow(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text === 'startChild' || callee.text === 'executeChild';
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const owner = callee.expression;
  const ownerName = ts.isPropertyAccessExpression(owner) ? owner.name.text : ts.isIdentifier(owner) ? owner.text : '';
  const method = callee.name.text;
  if (ownerName === 'workflow') return method === 'start' || method === 'signalWithStart';
  if (ownerName === 'schedule') return method === 'create';
  return false;
}

/** Whether a call's argument passes `typedSearchAttributes` naming `SvcWorkspaceId`, at any depth (a schedule's action). */
function passesWorkspaceAttribute(node: ts.Node): boolean {
  if (
    (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) &&
    ts.isIdentifier(node.name) &&
    node.name.text === 'typedSearchAttributes'
  ) {
    return node.getText().includes('SvcWorkspaceId');
  }
  return ts.forEachChild(node, (n) => passesWorkspaceAttribute(n) || undefined) ?? false;
}

/** `file:line` of every workflow start in the file that does not pass `SvcWorkspaceId`. */
function startsWithout(file: string): { starts: number; missing: string[] } {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  let starts = 0;
  const missing: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && startsWorkflow(n)) {
      starts++;
      if (!n.arguments.some(passesWorkspaceAttribute)) {
        missing.push(`${file}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return { starts, missing };
}

describe('search attributes', () => {
  it('every workflow the service starts carries SvcWorkspaceId', () => {
    const files = sourceFiles(STARTING_DIRS);
    const seen = files.filter((f) => !(f in NO_WORKSPACE)).map(startsWithout);
    // an exception for a file that no longer starts anything is stale
    for (const file of Object.keys(NO_WORKSPACE)) expect(startsWithout(file).starts).toBeGreaterThan(0);
    // the walk finds the starts at all: the run, flow, eval, conversation, phone call, saved table, webhook and
    // output ones (14 today; child runs all start through workflows/startChildRun.ts)
    expect(seen.reduce((n, s) => n + s.starts, 0)).toBeGreaterThanOrEqual(12);
    expect(seen.flatMap((s) => s.missing)).toEqual([]);
  });
});
