import type { ZodType } from 'zod';
import type { AppContext } from '../context';
import type { Role } from '../../db/entities/Membership';
import type { Scope } from '../../domain/identity/scopes';
import type { Deprecation } from '../middleware/deprecation';
import type { IpRateLimit } from '../middleware/rateLimit';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route, declared once per route (docs/api/identity.md):
 * - `public`: no credential (health, sign-in/up, e-mail verification);
 * - `session`: console routes, session cookie only; `scope` is the role check;
 * - `any`: an API key holding `scope`, or a session whose role allows it; `sessionRoles`, when given,
 *   names the roles a session must have instead (the audit log: owner and admin, though admins do not
 *   hold the key's scope `keys:manage`).
 */
export type Access =
  | { auth: 'public' }
  | { auth: 'session'; scope?: Scope }
  | { auth: 'any'; scope: Scope; sessionRoles?: readonly Role[] };

export interface ResponseDoc {
  description: string;
  /** A JSON body's schema. */
  schema?: ZodType;
  /** The media type of a body that is not JSON (an event stream, stored bytes); beside `schema`, another form. */
  contentType?: string | string[];
}

export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

export interface RouteDef<B = unknown, Q = unknown, P = unknown> {
  method: HttpMethod;
  /** Koa path, `:param` style; OpenAPI gets `{param}`. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  /** Per-client-IP limit for unauthenticated routes such as sign-in (docs/api/limits.md). */
  ipRateLimit?: IpRateLimit;
  body?: ZodType<B>;
  /**
   * A body the handler reads itself (uploads, a public form): documented in OpenAPI, never parsed by the
   * router. A media type without an entry in `schemas` is documented as bytes (multipart: a `file` part).
   */
  rawBody?: { contentTypes: string[]; description: string; schemas?: Record<string, ZodType> };
  /**
   * Request headers the route reads besides the credential and `Idempotency-Key`, as an object of header
   * names (`X-Filename`); checked by the `validate` middleware when sent, and documented in OpenAPI.
   */
  headers?: ZodType;
  query?: ZodType<Q>;
  /**
   * The query carries the credential of what the path names (a status page's token): a query that fails its
   * schema is 404 like a wrong credential, so nobody learns from the answer that the page exists.
   */
  credentialInQuery?: boolean;
  params?: ZodType<P>;
  responses: Record<number, ResponseDoc>;
  /**
   * How a POST honours `Idempotency-Key` (docs/api/limits.md#idempotency): `replay` (the default) keeps
   * the first answer and replays it; `secret` for an answer that shows a secret once (a repeat is 409
   * naming what was created); `own` for a route whose operation keeps its key itself, in the same
   * transaction as its effect (run creation).
   */
  idempotency?: 'replay' | 'secret' | 'own';
  /**
   * Where a create (201 with an `id`) puts what it made, when that is not under its own path: the
   * collection path whose `/:id` operations read and act on it (`POST /v1/agents/:id/evals` → `/v1/evals`).
   * The OpenAPI document links the create to them (api/openapiLinks.ts).
   */
  creates?: string;
  /** Where the answer of such a create names the new id, as a JSON pointer: `/id` unless said here. */
  createdId?: string;
  /** Set on a route on its way out: it answers with `Deprecation` and `Sunset` (docs/versioning.md). */
  deprecated?: Deprecation;
  handler: (ctx: AppContext, input: RouteInput<B, Q, P>) => Promise<void>;
}

/** Declares a route; the generics flow from the schemas to the handler's typed input. */
export function defineRoute<B = undefined, Q = undefined, P = undefined>(def: RouteDef<B, Q, P>): RouteDef {
  return def as unknown as RouteDef;
}
