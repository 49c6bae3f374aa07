import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/** The repository root; every path in the graph is relative to it, with `/` separators. */
export const ROOT = path.resolve(__dirname, '../..');

/** One import: `from` imports `to`, a repository file (`api/app.ts`) or a package name (`koa`, `node:fs`). */
export interface Edge {
  from: string;
  to: string;
  /** false for a package or built-in module */
  local: boolean;
}

const SKIP_DIRS = new Set(['node_modules', 'dist', '.data', 'coverage']);

function listTs(dir: string, out: string[]): void {
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name) || entry.name.startsWith('.')) continue;
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) listTs(rel, out);
    else if (entry.name.endsWith('.ts')) out.push(rel);
  }
}

/** The `.ts` files below the given top-level folders, sorted. */
/** The lines of `text` (the file `file`) that `matches` holds of, each trimmed, as `file:line: code`. */
export function matchingLines(file: string, text: string, matches: (line: string) => boolean): string[] {
  return text
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => matches(line))
    .map(({ line, n }) => `${file}:${n}: ${line}`);
}

export function sourceFiles(dirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const dir of dirs) if (fs.existsSync(path.join(ROOT, dir))) listTs(dir, out);
  return out.sort();
}

/** Resolves a relative specifier to a repository file the way TypeScript does (`.js` maps back to `.ts`). */
function resolveLocal(from: string, spec: string): string | undefined {
  const base = path.posix.join(path.posix.dirname(from), spec).replace(/\.js$/, '');
  const candidates = [base, `${base}.ts`, `${base}.d.ts`, `${base}/index.ts`];
  return candidates.find((c) => fs.existsSync(path.join(ROOT, c)) && fs.statSync(path.join(ROOT, c)).isFile());
}

/**
 * Every import of every file: static imports and re-exports (type-only ones too), `require(...)`
 * and `import(...)`. A relative import that resolves to no file is reported as an error, so that
 * a moved file cannot slip out of the rules unseen.
 */
export function importEdges(files: readonly string[]): Edge[] {
  const edges: Edge[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    for (const { fileName: spec } of importedFiles) {
      if (spec.startsWith('.')) {
        const to = resolveLocal(file, spec);
        if (!to) throw new Error(`${file}: cannot resolve import '${spec}'`);
        edges.push({ from: file, to, local: true });
      } else {
        edges.push({ from: file, to: spec, local: false });
      }
    }
  }
  return edges;
}

/** The top-level folder of a repository path (`api` for `api/routes/runs.ts`). */
export function layerOf(file: string): string {
  return file.split('/')[0];
}

/**
 * The import cycles among `files`: one per strongly connected component (Tarjan), each printed as
 * a closed path `a.ts -> b.ts -> a.ts` found inside that component.
 */
export function findCycles(edges: readonly Edge[], files: ReadonlySet<string>): string[][] {
  const { components, next } = cyclicGroups(edges, files);
  return components.map((component) => cycleWithin(component[0], new Set(component), next));
}

/** The strongly connected groups (Tarjan) among `files` that hold a cycle, each sorted, and the edges as a map. */
function cyclicGroups(
  edges: readonly Edge[],
  files: ReadonlySet<string>,
): { components: string[][]; next: Map<string, string[]> } {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!e.local || !files.has(e.from) || !files.has(e.to)) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;

  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = (next.get(v) ?? []).includes(v);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  };
  for (const f of [...files].sort()) if (!index.has(f)) visit(f);
  return { components, next };
}

/** A shortest closed path from `start` back to itself, staying inside `component` (breadth-first). */
function cycleWithin(start: string, component: ReadonlySet<string>, next: ReadonlyMap<string, string[]>): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of next.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = parent.get(u)!) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/**
 * The area of a file under `domain/`: its first folder (`runs` for `domain/runs/create.ts`); none for
 * files outside `domain/` or directly in it (`domain/errors.ts`, `domain/plugins.ts`).
 */
export function areaOf(file: string): string | undefined {
  const parts = file.split('/');
  return parts[0] === 'domain' && parts.length > 2 ? parts[1] : undefined;
}

/** The imports from one area of `domain/` into another, as file edges. */
export function crossAreaEdges(edges: readonly Edge[]): Edge[] {
  return edges.filter((e) => {
    if (!e.local) return false;
    const [from, to] = [areaOf(e.from), areaOf(e.to)];
    return from !== undefined && to !== undefined && from !== to;
  });
}

/**
 * The cycles among the areas of `domain/`, one per strongly connected group of areas: the group, then
 * a shortest closed path of areas in it with the file imports that make every step (`runs -> agents
 * (domain/runs/a.ts -> domain/agents/b.ts)`), so a failure says which imports to undo.
 */
export function findAreaCycles(edges: readonly Edge[]): string[] {
  const between = crossAreaEdges(edges);
  const areaEdges = between.map((e) => ({ from: areaOf(e.from)!, to: areaOf(e.to)!, local: true }));
  const { components, next } = cyclicGroups(areaEdges, new Set(areaEdges.flatMap((e) => [e.from, e.to])));
  return components.map((group) => {
    const cycle = cycleWithin(group[0], new Set(group), next);
    const steps = cycle
      .slice(1)
      .map((to, i) => {
        const from = cycle[i];
        const files = between.filter((e) => areaOf(e.from) === from && areaOf(e.to) === to);
        return `${from} -> ${to} (${files.map((e) => `${e.from} -> ${e.to}`).join(', ')})`;
      })
      .join('; ');
    return `areas in one cycle (${group.join(', ')}): ${steps}`;
  });
}
