import { ASK_USER, type ToolCall, type ToolSpec } from '../../workflows/agentTurn';
import { safeRequest } from '../../platform/net/safeHttp';
import type { Orm } from '../../db/orm';
import type { Resolver } from '../../platform/net/publicAddress';
import type { Storage } from '../../platform/storage/storage';
import type { ZipLimits } from '../../platform/zipGuard';

/** The built-in tool catalogue (`GET /v1/tools`, docs/api/agents.md). */
export { ASK_USER };

/** The tools every registry has: the human gate and the guarded HTTP request. */
const GENERIC_SPECS: ToolSpec[] = [
  {
    name: ASK_USER,
    description: 'Ask the person running the agent a question and wait for the answer (run → needs_input).',
    parameters: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
  },
  {
    name: 'http_request',
    description: 'GET or POST a public http(s) URL and return the status and up to 64 KiB of the body.',
    parameters: {
      type: 'object',
      properties: {
        url: { type: 'string' },
        method: { type: 'string', enum: ['GET', 'POST'] },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        body: { type: 'string' },
      },
      required: ['url'],
    },
  },
];

/**
 * The calling run of a tool call, and the index of the step that makes the call (a file the tool writes is
 * that step's artifact, domain/files/runFiles.ts).
 */
export interface ToolContext {
  runId: string;
  stepIndex?: number;
}

/**
 * Runs one tool call. `context` names the calling run, for tools that work on its workspace and agent;
 * it is absent where no run calls (the API only lists tools).
 */
export type ToolHandler = (
  args: Record<string, unknown>,
  context: ToolContext | undefined,
  signal?: AbortSignal,
) => Promise<string>;

/**
 * What an area's tools are built from. The worker passes both; the API passes neither, as it only
 * lists tools, so a tool that needs one refuses to run there.
 */
export interface ToolDeps {
  orm?: Orm;
  /** The file library's storage, for the finance tools. */
  storage?: Storage;
  /** What a workbook the finance tools read may inflate to (`SVC_MAX_INFLATED_BYTES` and the rest). */
  zipLimits?: ZipLimits;
}

export interface ToolRegistry {
  specs(names: string[]): ToolSpec[];
  names(): string[];
  /** Every tool's spec, in the order they joined: the catalogue. */
  list(): ToolSpec[];
  /**
   * Runs a tool other than ask_user (that one is a human gate, handled by the workflow). `context.runId`
   * names the calling run, for tools that work on its workspace and agent (`knowledge_search`).
   */
  run(call: ToolCall, signal?: AbortSignal, context?: ToolContext): Promise<string>;
  /**
   * Adds an area's tool (docs/architecture.md, "Registries"): the registry knows no area's tools, the
   * composition roots register them. @throws Error for a name already taken
   */
  register(spec: ToolSpec, handler: ToolHandler): void;
}

/**
 * Tools behind one interface; `http_request` goes through the same public-address guard as webhooks.
 * `allowPrivate` is `SVC_ALLOW_PRIVATE_EGRESS` (never the webhooks' switch); `resolver` answers the guard's name
 * lookups (`SVC_DNS_SERVERS`, default the system resolver). Holds `ask_user` and `http_request`; the
 * areas' tools join by `register`.
 */
export function createToolRegistry(opts: {
  allowPrivate: boolean;
  resolver?: Resolver;
  timeoutMs?: number;
}): ToolRegistry {
  const byName = new Map(GENERIC_SPECS.map((t) => [t.name, t]));
  const handlers = new Map<string, ToolHandler>([
    ['http_request', (args, _context, signal) => httpRequest(args, signal)],
  ]);

  async function httpRequest(call: Record<string, unknown>, signal?: AbortSignal): Promise<string> {
    const args = call as { url?: unknown; method?: unknown; headers?: unknown; body?: unknown };
    if (typeof args.url !== 'string') throw new Error('http_request needs a url');
    const method = args.method === 'POST' ? 'POST' : 'GET';
    const headers = args.headers && typeof args.headers === 'object' ? (args.headers as Record<string, string>) : {};
    const res = await safeRequest(args.url, {
      signal,
      method,
      headers,
      body: method === 'POST' && typeof args.body === 'string' ? args.body : undefined,
      timeoutMs: opts.timeoutMs ?? 15_000,
      allowPrivate: opts.allowPrivate,
      resolver: opts.resolver,
    });
    return JSON.stringify({ status: res.status, body: res.body.toString('utf8'), truncated: res.truncated });
  }

  return {
    names: () => [...byName.keys()],
    specs: (names) => names.map((n) => byName.get(n)).filter((t): t is ToolSpec => Boolean(t)),
    list: () => [...byName.values()],
    async run(call, signal, context) {
      const handler = handlers.get(call.name);
      if (!handler) throw new Error(`unknown tool ${call.name}`);
      return handler(call.args, context, signal);
    },
    register(spec, handler) {
      if (byName.has(spec.name)) throw new Error(`tool ${spec.name} is registered already`);
      byName.set(spec.name, spec);
      handlers.set(spec.name, handler);
    },
  };
}
