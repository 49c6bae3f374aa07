/**
 * The layer rules of docs/architecture.md, checked over the import graph of every `.ts` file:
 * api/ and activities/ → domain/ → db/ → platform/, workflows/ only itself and the Temporal SDK,
 * nothing imports api/ or worker/ but the benchmark and the tests, and no file imports itself back
 * through a circle; inside domain/, the areas import one another without a cycle and domain/shared/
 * imports no area. A failure lists the offending edges as `importer -> imported`.
 */
import {
  areaOf,
  crossAreaEdges,
  type Edge,
  findAreaCycles,
  findCycles,
  importEdges,
  layerOf,
  sourceFiles,
} from './importGraph';

const SOURCE_DIRS = ['api', 'activities', 'domain', 'db', 'platform', 'workflows', 'worker', 'scripts'];
const ALL_DIRS = [...SOURCE_DIRS, 'bench', 'test'];

/** The run vocabulary in workflows/ that every layer may import. */
const WORKFLOW_VOCABULARY = new Set([
  'workflows/messages.ts',
  'workflows/agentTurn.ts',
  'workflows/activityTypes.ts',
  'workflows/failures.ts',
  'workflows/flowMessages.ts',
  'workflows/conversationMessages.ts',
]);

/** The only packages workflow code may import: the sandbox replaces everything else. */
const WORKFLOW_PACKAGES = ['@temporalio/workflow', '@temporalio/common'];

const edges = importEdges(sourceFiles(ALL_DIRS));

function offending(rule: (e: Edge) => boolean): string[] {
  return edges.filter(rule).map((e) => `${e.from} -> ${e.to}`);
}

const local = (e: Edge) => e.local;
const inLayer =
  (...layers: string[]) =>
  (file: string) =>
    layers.includes(layerOf(file));

describe('import rules', () => {
  it('sees the whole tree', () => {
    expect(edges.filter(local).length).toBeGreaterThan(100);
  });

  it('nothing outside api/ imports api/ (bench/ and test/ aside)', () => {
    const exempt = inLayer('api', 'bench', 'test');
    expect(offending((e) => local(e) && !exempt(e.from) && layerOf(e.to) === 'api')).toEqual([]);
  });

  it('nothing outside worker/ imports worker/ (bench/ and test/ aside)', () => {
    const exempt = inLayer('worker', 'bench', 'test');
    expect(offending((e) => local(e) && !exempt(e.from) && layerOf(e.to) === 'worker')).toEqual([]);
  });

  it('workflows/ imports only itself, @temporalio/workflow and @temporalio/common (type-only imports too)', () => {
    const allowedPackage = (spec: string) => WORKFLOW_PACKAGES.some((p) => spec === p || spec.startsWith(`${p}/`));
    expect(
      offending(
        (e) => layerOf(e.from) === 'workflows' && (e.local ? layerOf(e.to) !== 'workflows' : !allowedPackage(e.to)),
      ),
    ).toEqual([]);
  });

  it('domain/ imports neither api/ nor activities/, nor @temporalio/activity', () => {
    expect(
      offending(
        (e) =>
          layerOf(e.from) === 'domain' &&
          (e.local ? inLayer('api', 'activities')(e.to) : e.to === '@temporalio/activity'),
      ),
    ).toEqual([]);
  });

  it('db/ imports only db/, platform/ and the workflow vocabulary', () => {
    expect(
      offending(
        (e) =>
          local(e) && layerOf(e.from) === 'db' && !inLayer('db', 'platform')(e.to) && !WORKFLOW_VOCABULARY.has(e.to),
      ),
    ).toEqual([]);
  });

  it('platform/ imports only platform/', () => {
    expect(offending((e) => local(e) && layerOf(e.from) === 'platform' && layerOf(e.to) !== 'platform')).toEqual([]);
  });

  it('no import cycles among source files', () => {
    const files = new Set(edges.map((e) => e.from).filter(inLayer(...SOURCE_DIRS)));
    expect(findCycles(edges, files).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });
});

describe('drills and benchmark', () => {
  it('test/drills imports nothing from bench/: what both drive the service with lives in test/helpers/live', () => {
    expect(offending((e) => local(e) && e.from.startsWith('test/drills/') && layerOf(e.to) === 'bench')).toEqual([]);
  });
});

describe('area rules (docs/architecture.md, "Areas and registries")', () => {
  it('sees the areas of domain/', () => {
    expect(new Set(edges.map((e) => areaOf(e.from)).filter(Boolean)).size).toBeGreaterThan(20);
    expect(crossAreaEdges(edges).length).toBeGreaterThan(50);
  });

  it('no cycle among the areas of domain/', () => {
    expect(findAreaCycles(edges)).toEqual([]);
  });

  it('domain/shared/ imports no area', () => {
    expect(
      offending(
        (e) => local(e) && areaOf(e.from) === 'shared' && areaOf(e.to) !== undefined && areaOf(e.to) !== 'shared',
      ),
    ).toEqual([]);
  });

  it('no area imports the composition of plug-ins (domain/plugins.ts)', () => {
    expect(offending((e) => areaOf(e.from) !== undefined && e.to === 'domain/plugins.ts')).toEqual([]);
  });

  it('names the areas and the imports of a cycle it finds', () => {
    const planted: Edge[] = [
      { from: 'domain/runs/create.ts', to: 'domain/agents/find.ts', local: true },
      { from: 'domain/agents/find.ts', to: 'domain/billing/cost.ts', local: true },
      { from: 'domain/billing/cost.ts', to: 'domain/runs/presenters.ts', local: true },
      { from: 'domain/billing/cost.ts', to: 'domain/shared/money.ts', local: true },
      { from: 'domain/runs/create.ts', to: 'domain/runs/insertRun.ts', local: true },
      { from: 'api/routes/runs.ts', to: 'domain/runs/create.ts', local: true },
    ];
    expect(findAreaCycles(planted)).toEqual([
      'areas in one cycle (agents, billing, runs): ' +
        'agents -> billing (domain/agents/find.ts -> domain/billing/cost.ts); ' +
        'billing -> runs (domain/billing/cost.ts -> domain/runs/presenters.ts); ' +
        'runs -> agents (domain/runs/create.ts -> domain/agents/find.ts)',
    ]);
    expect(findAreaCycles(planted.filter((e) => !e.to.startsWith('domain/runs/')))).toEqual([]);
  });
});
