/**
 * Every sensitive write is in the audit log (docs/api/audit.md). The domain functions that make them are
 * listed here; each must take the request's `AuditContext` and reach `recordAudit` (itself or through a
 * function of its own file), so it records in its own transaction. And any domain function that is handed
 * an `AuditContext` must use it: a context passed down and dropped is a write that forgot its entry.
 * A new sensitive write joins the list (docs/api/audit.md#adding-an-audited-write).
 */
import fs from 'node:fs';
import path from 'node:path';
import * as ts from 'typescript';
import { sourceFiles } from './importGraph';

const ROOT = path.resolve(__dirname, '../..');

/** file → the functions in it that make an audited change. */
const AUDITED: Record<string, string[]> = {
  'domain/identity/apiKeys.ts': ['createApiKey', 'issueApiKey', 'setApiKeySpendCap', 'revokeApiKey'],
  'domain/runs/actions.ts': ['answerGate'],
  'domain/webhooks/subscriptions.ts': ['createSubscription', 'deleteSubscription'],
  'domain/outputs/connections.ts': ['createConnection', 'deleteConnection'],
  'domain/dataSources/dataSources.ts': ['updateDataSource'],
  'domain/apps/apps.ts': ['publishApp', 'pauseApp'],
  'domain/projects/members.ts': ['putProjectMember'],
  'domain/identity/memberRoles.ts': ['changeMemberRole'],
  'domain/flows/runs.ts': ['answerFlowApproval'],
};

interface FunctionFacts {
  takesAuditContext: boolean;
  calls: Set<string>;
}

/** The top-level functions of a source text (declarations and `const f = () => …`), with what they call. */
export function functionsOf(text: string): Map<string, FunctionFacts> {
  const source = ts.createSourceFile('f.ts', text, ts.ScriptTarget.Latest, true);
  const out = new Map<string, FunctionFacts>();
  const facts = (fn: ts.SignatureDeclaration & { body?: ts.Node }): FunctionFacts => {
    const calls = new Set<string>();
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        if (ts.isIdentifier(callee)) calls.add(callee.text);
        else if (ts.isPropertyAccessExpression(callee)) calls.add(callee.name.text);
      }
      ts.forEachChild(node, visit);
    };
    if (fn.body) visit(fn.body);
    const takesAuditContext = fn.parameters.some((p) => p.type?.getText(source) === 'AuditContext');
    return { takesAuditContext, calls };
  };
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) out.set(statement.name.text, facts(statement));
    if (ts.isVariableStatement(statement)) {
      for (const decl of statement.declarationList.declarations) {
        const init = decl.initializer;
        if (ts.isIdentifier(decl.name) && init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
          out.set(decl.name.text, facts(init));
        }
      }
    }
  }
  return out;
}

/** Whether `name` calls `recordAudit`, itself or through functions of the same file. */
export function reachesRecorder(
  functions: Map<string, FunctionFacts>,
  name: string,
  seen = new Set<string>(),
): boolean {
  const fn = functions.get(name);
  if (!fn || seen.has(name)) return false;
  seen.add(name);
  if (fn.calls.has('recordAudit')) return true;
  return [...fn.calls].some((callee) => reachesRecorder(functions, callee, seen));
}

/** What is wrong with the audited functions `names` of one file, as `file: function …` lines. */
export function auditProblems(file: string, text: string, names: string[]): string[] {
  const functions = functionsOf(text);
  return names.flatMap((name) => {
    const fn = functions.get(name);
    if (!fn) return [`${file}: ${name} is listed as audited but not found`];
    const problems: string[] = [];
    if (!fn.takesAuditContext) problems.push(`${file}: ${name} takes no AuditContext`);
    if (!reachesRecorder(functions, name)) problems.push(`${file}: ${name} never calls recordAudit`);
    return problems;
  });
}

/** Functions of a file handed an AuditContext that never record with it. */
export function droppedContexts(file: string, text: string): string[] {
  const functions = functionsOf(text);
  return [...functions]
    .filter(([name, fn]) => fn.takesAuditContext && !reachesRecorder(functions, name))
    .map(([name]) => `${file}: ${name} takes an AuditContext and never calls recordAudit`);
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('audited writes', () => {
  it('every listed sensitive write takes the audit context and records in its transaction', () => {
    const problems = Object.entries(AUDITED).flatMap(([file, names]) => auditProblems(file, read(file), names));
    expect(problems).toEqual([]);
  });

  it('no domain function drops the audit context it is handed', () => {
    const files = sourceFiles(['domain']).filter((f) => !f.startsWith('domain/audit/') && !f.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => droppedContexts(f, read(f)))).toEqual([]);
  });

  it('catches a planted write that forgets its entry, directly or through a helper', () => {
    const planted = `
      export async function revokeThing(em: EntityManager, id: string, audit: AuditContext) {
        await em.nativeUpdate(Thing, { id }, { revokedAt: new Date() });
      }
      export async function renameThing(em: EntityManager, id: string) {
        await save(em, id);
      }
      const save = async (em: EntityManager, id: string) => em.flush();
      export async function publishThing(em: EntityManager, id: string, audit: AuditContext) {
        await em.transactional((tx) => move(tx, audit));
      }
      async function move(tx: EntityManager, audit: AuditContext) {
        await recordAudit(tx, audit, { action: 'app.published', resourceType: 'app', resourceId: 'x' });
      }`;
    expect(auditProblems('domain/planted.ts', planted, ['revokeThing', 'renameThing', 'publishThing', 'gone'])).toEqual(
      [
        'domain/planted.ts: revokeThing never calls recordAudit',
        'domain/planted.ts: renameThing takes no AuditContext',
        'domain/planted.ts: renameThing never calls recordAudit',
        'domain/planted.ts: gone is listed as audited but not found',
      ],
    );
    expect(droppedContexts('domain/planted.ts', planted)).toEqual([
      'domain/planted.ts: revokeThing takes an AuditContext and never calls recordAudit',
    ]);
  });
});
