import { SCOPES } from '../../domain/identity/scopes';
import { startApi, type Harness } from '../helpers/harness';

// Issue: "every route declares its scope in one place … a test enumerates every registered route".
describe('route declarations', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('every route registered on the router has exactly one declaration with an access rule', () => {
    const declared = new Map(h.routes.map((r) => [`${r.method} ${r.path}`, r]));
    expect(declared.size).toBe(h.routes.length);
    const layers = h.router.stack;
    expect(layers.length).toBeGreaterThan(0);
    for (const layer of layers) {
      const methods = layer.methods.filter((m) => m !== 'HEAD');
      for (const method of methods) {
        const route = declared.get(`${method} ${layer.path}`);
        expect({ route: `${method} ${layer.path}`, declared: Boolean(route) }).toEqual({
          route: `${method} ${layer.path}`,
          declared: true,
        });
      }
    }
  });

  it('a literal path comes before every parameter route of its method that would take it (the first match answers)', () => {
    const pattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`);
    const shadowed = h.routes.flatMap((literal, i) =>
      literal.path.includes(':')
        ? []
        : h.routes
            .slice(0, i)
            .filter((p) => p.method === literal.method && p.path.includes(':') && pattern(p.path).test(literal.path))
            .map((p) => `${literal.method} ${literal.path} is declared after ${p.path}`),
    );
    expect(shadowed).toEqual([]);
  });

  it('every /v1 route outside the console and the public document names a scope from the list', () => {
    for (const route of h.routes) {
      const name = `${route.method} ${route.path}`;
      if (route.path.startsWith('/v1/console/')) {
        expect([name, route.access.auth]).toEqual([name, route.access.auth === 'public' ? 'public' : 'session']);
        continue;
      }
      if (route.access.auth === 'public') {
        // the public faces outside the credentialed API (/shared/*: shared run dashboards, /apps/*: published apps) take no credential
        if (route.path.startsWith('/shared/')) continue;
        // a published app's pages (docs/api/apps.md#public-pages)
        if (route.path.startsWith('/apps/')) continue;
        // a one-click approval link, bound to its signed single-use token (docs/api/runs.md#approval-policies)
        if (route.path.startsWith('/approvals/')) continue;
        // the token-authenticated flow webhook (docs/api/flows.md#webhook), the phone callbacks (token and signature)
        // (docs/api/phone.md#callbacks) and the WhatsApp webhook, checked by its verify token and signature
        // (docs/api/whatsapp.md#webhook)
        expect([
          'GET /healthz',
          'GET /readyz',
          'GET /v1/openapi.json',
          'POST /hooks/flows/:token',
          'POST /hooks/phone/:numberId/:token',
          'POST /hooks/phone/:numberId/:token/status',
          'GET /hooks/whatsapp/:accountId',
          'POST /hooks/whatsapp/:accountId',
        ]).toContain(name);
        continue;
      }
      expect(route.access.auth).toBe('any');
      expect(SCOPES).toContain((route.access as { scope: string }).scope);
    }
  });

  it('documents every declared route in /v1/openapi.json with its scope', async () => {
    const doc = await (await h.request('/v1/openapi.json')).json();
    for (const route of h.routes) {
      const op = doc.paths[route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(op).toBeDefined();
      if ('scope' in route.access && route.access.scope) expect(op['x-scope']).toBe(route.access.scope);
    }
  });
});
