import type { RouteDef } from './routes/route';

/** A Koa path (`:param`) as an OpenAPI path template (`{param}`). */
export const templateOf = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The operationId of a declared route: `GET /v1/runs/{id}` → `getV1RunsId`. */
export const operationId = (method: string, path: string) =>
  `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`;

/** Creates whose id another create takes in its body: `[operation, body field]` per collection. */
const LINKED_BODIES: Record<string, Array<[string, string]>> = {
  '/v1/agents': [['POST /v1/runs', 'agentId']],
};

const paramsOf = (template: string) => [...template.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);

/**
 * The answer of a create that carries what it made: its 201, or for a route that declares `creates` its first
 * 2xx with a body (a flow run is accepted, 202).
 */
export function createdStatus(route: RouteDef): string | undefined {
  if (route.method !== 'POST') return undefined;
  if (route.responses[201]) return '201';
  if (!route.creates) return undefined;
  return Object.keys(route.responses).find(
    (status) => /^2\d\d$/.test(status) && route.responses[Number(status)].schema,
  );
}

/**
 * OpenAPI links from a create (a POST answering 201 with an id, see createdStatus) to every operation on what it made: the
 * operations on `<collection>/{x}` and below, where the collection is the create's own path or the one it
 * declares (`creates`). A target's parameters are bound by name: the new id from the answer (`id`, the
 * answer's property named like the parameter, `runId`, or where `createdId` points), the other path parameters from the create's own
 * path (`slug`), and a required query parameter from the answer's property of its name (a status page's
 * `token`). A target with a parameter nothing binds (a delivery's id) is left out. So a client, and the
 * fuzzer's stateful phase (docs/testing.md), can follow a new resource to its reads, actions and delete.
 *
 * @param created the property names of the create's answer
 */
export function createLinks(
  routes: RouteDef[],
  route: RouteDef,
  created: string[],
  requiredQuery: (route: RouteDef) => string[],
): Record<string, unknown> | undefined {
  if (!createdStatus(route)) return undefined;
  const own = templateOf(route.path);
  const collection = templateOf(route.creates ?? route.path);
  const ownParams = new Set(paramsOf(own));
  const links: Record<string, unknown> = {};
  for (const other of routes) {
    const target = templateOf(other.path);
    const next = new RegExp(`^${escape(collection)}/\\{([A-Za-z0-9_]+)\\}(?:/|$)`).exec(target);
    if (!next) continue;
    const newId = next[1];
    const fromAnswer =
      route.createdId ?? (created.includes('id') ? '/id' : created.includes(newId) ? `/${newId}` : undefined);
    if (!fromAnswer) continue;
    const parameters: Record<string, string> = {};
    let bound = true;
    for (const name of paramsOf(target)) {
      if (name === newId) parameters[name] = `$response.body#${fromAnswer}`;
      else if (ownParams.has(name)) parameters[name] = `$request.path.${name}`;
      else bound = false;
    }
    for (const name of requiredQuery(other)) {
      if (created.includes(name)) parameters[name] = `$response.body#/${name}`;
    }
    if (!bound) continue;
    const id = operationId(other.method, target);
    links[id] = { operationId: id, parameters };
  }
  for (const [target, field] of LINKED_BODIES[collection] ?? []) {
    const [method, targetPath] = target.split(' ') as [string, string];
    const id = operationId(method, targetPath);
    if (created.includes('id')) links[id] = { operationId: id, requestBody: { [field]: '$response.body#/id' } };
  }
  return Object.keys(links).length ? links : undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
