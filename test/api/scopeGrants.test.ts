import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCOPES, type Scope } from '../../domain/identity/scopes';
import { startApi, type Harness } from '../helpers/harness';

/**
 * The grants each scope promises, one line per grant as docs/api/identity.md's scope table names them. The
 * table must keep every one of them, each with at least one route the service declares: a grant whose route
 * is gone (or was never built) fails here.
 */
const GRANTS: Record<Scope, string[]> = {
  'runs:read': [
    'list and get runs',
    'steps',
    'output',
    'artifacts',
    'report',
    'dashboard',
    'live events',
    'recent run input files',
    'local-runner batches',
    'workspace search',
  ],
  'runs:write': [
    'create runs',
    'submit input, approve, review, cancel',
    "share and unshare a run's dashboard",
    'start, continue and end tutor sessions',
  ],
  'agents:read': [
    'list and get agents',
    'versions',
    'evals',
    'improvement proposals',
    "an agent's definition",
    'knowledge documents',
    'projects and members',
    'presets, models, tools',
    'price lists and pricing rules',
    'agent-copilot sessions',
    'tutor sessions',
  ],
  'agents:write': [
    'create, update, delete agents',
    'versions',
    'run evals',
    'create, accept, reject improvement proposals',
    'the agent copilot',
    'knowledge documents',
    'price lists and pricing rules',
    'projects and members',
    'phone agents, beside `phone:manage`',
  ],
  'files:read': ['list the file library and folders', 'download a file'],
  'files:write': ['upload files', 'rename, move, delete files', 'create, rename, delete folders'],
  'feedback:write': ['submit run feedback'],
  'webhooks:manage': ['webhook subscriptions', 'save-output connections'],
  'usage:read': ['usage totals', 'balance'],
  'keys:manage': ['create, list, revoke API keys', "set a key's monthly spend cap"],
  'apps:manage': [
    'create, update, publish, pause, delete published apps',
    'custom domains',
    'per-app usage',
    'app templates',
  ],
  'phone:read': ['list and get phone agents', 'numbers', 'calls', 'voices and models', 'the booking calendar'],
  'phone:manage': [
    'create, update, delete phone agents',
    'create, update, delete numbers',
    'rotate their secrets',
    'place outbound calls',
    'change the booking calendar',
    'an agent on a phone preset, beside `agents:write`',
  ],
  'finance:read': ['list transactions', 'imports', 'rules and categories', 'the summary', 'export'],
  'finance:write': [
    'import bank exports',
    'edit transactions',
    'categories and rules, delete rules',
    'start reconciliation and report runs',
  ],
  'data_sources:read': [
    'list and get data sources',
    'browse objects and schema',
    'read from them',
    'list, get, refresh saved tables',
    'the data-source copilot and its sessions',
  ],
  'data_sources:manage': [
    'create, update, delete, test data sources',
    'upload files to a file source',
    'create and delete saved tables',
  ],
  'flows:read': ['list and get flows', 'their runs', 'flow templates'],
  'flows:manage': [
    'create (also from a template), update, delete flows',
    'run one manually',
    'regenerate its webhook token',
    "answer a flow run's approval step",
  ],
  'whatsapp:read': ['list WhatsApp accounts', 'read conversations'],
  'whatsapp:manage': ['connect, update, remove WhatsApp accounts'],
  'runner:run': [
    'report a local runner batch',
    'instructions and saved reads on the definition, together with `agents:read`',
  ],
};

interface Row {
  scope: string;
  grant: string;
  routes: string[];
}

/** The rows of the scope table: `| scope | grant | routes |`, routes as backticked `METHOD /path`. */
function scopeTable(): Row[] {
  const doc = readFileSync(join(__dirname, '../../docs/api/identity.md'), 'utf8');
  const start = doc.indexOf('| scope | grant | routes |');
  expect(start).toBeGreaterThan(-1);
  const rows: Row[] = [];
  for (const line of doc.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [scope, grant, routes] = line
      .trim()
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim());
    rows.push({
      scope: scope.replaceAll('`', ''),
      grant,
      routes: [...routes.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE) \/[^`\s]+)`/g)].map((m) => m[1]),
    });
  }
  return rows;
}

describe('the scope table of docs/api/identity.md', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('lists every grant of every scope, each with a route the service declares under that scope', () => {
    const rows = scopeTable();
    const declared = new Map(h.routes.map((r) => [`${r.method} ${r.path}`, r]));
    const listed = Object.fromEntries(SCOPES.map((s) => [s, rows.filter((r) => r.scope === s).map((r) => r.grant)]));
    expect(listed).toEqual(GRANTS);
    expect(rows.filter((r) => !(SCOPES as readonly string[]).includes(r.scope))).toEqual([]);

    const problems: string[] = [];
    for (const row of rows) {
      if (row.routes.length === 0) problems.push(`${row.scope} "${row.grant}": no route`);
      // a grant that goes with another scope is served by routes declaring that one
      const allowed = new Set([row.scope, ...[...row.grant.matchAll(/`([a-z_]+:[a-z]+)`/g)].map((m) => m[1])]);
      for (const route of row.routes) {
        const def = declared.get(route.replace(/\{([A-Za-z]+)\}/g, ':$1'));
        const scope = def && def.access.auth !== 'public' ? def.access.scope : undefined;
        if (!def) problems.push(`${row.scope} "${row.grant}": ${route} is not a declared route`);
        else if (!scope || !allowed.has(scope)) {
          problems.push(`${row.scope} "${row.grant}": ${route} declares ${scope ?? 'no scope'}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
