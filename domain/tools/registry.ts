import { ASK_USER, type ToolCall, type ToolSpec } from '../../workflows/agentTurn';
import { safeRequest } from '../../platform/net/safeHttp';
import type { Orm } from '../../db/orm';
import { KNOWLEDGE_SEARCH, KNOWLEDGE_SEARCH_SPEC, runKnowledgeSearch } from './knowledgeSearch';
import type { Resolver } from '../../platform/net/publicAddress';
import { runSavedTableRows, SAVED_TABLE_ROWS, SAVED_TABLE_ROWS_SPEC } from './savedTableRows';
import {
  CALENDAR_BOOK,
  CALENDAR_BOOK_SPEC,
  CALENDAR_FREE_SLOTS,
  CALENDAR_FREE_SLOTS_SPEC,
  runCalendarBook,
  runCalendarFreeSlots,
} from './calendar';
import { FINANCE_TOOL_SPECS, FINANCE_TOOLS, runFinanceTool } from './finance';
import type { Storage } from '../../platform/storage/storage';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from '../../platform/zipGuard';

/** The built-in tool catalogue (`GET /v1/tools`, docs/api/agents.md). */
export { ASK_USER };

export const TOOL_SPECS: ToolSpec[] = [
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
  KNOWLEDGE_SEARCH_SPEC,
  SAVED_TABLE_ROWS_SPEC,
  CALENDAR_FREE_SLOTS_SPEC,
  CALENDAR_BOOK_SPEC,
  ...FINANCE_TOOL_SPECS,
];

export interface ToolRegistry {
  specs(names: string[]): ToolSpec[];
  names(): string[];
  /**
   * Runs a tool other than ask_user (that one is a human gate, handled by the workflow). `context.runId`
   * names the calling run, for tools that work on its workspace and agent (`knowledge_search`).
   */
  run(call: ToolCall, signal?: AbortSignal, context?: { runId: string }): Promise<string>;
}

/**
 * Tools behind one interface; `http_request` goes through the same public-address guard as webhooks.
 * `allowPrivate` is `SVC_ALLOW_PRIVATE_EGRESS` (never the webhooks' switch); `resolver` answers the guard's name
 * lookups (`SVC_DNS_SERVERS`, default the system resolver). `orm` is needed only to run `knowledge_search`
 * (the worker passes it; the API only lists tools).
 */
export function createToolRegistry(opts: {
  allowPrivate: boolean;
  resolver?: Resolver;
  timeoutMs?: number;
  orm?: Orm;
  /** The file library's storage, for the finance tools (the worker passes it). */
  storage?: Storage;
  /** What a workbook the finance tools read may inflate to (`SVC_MAX_INFLATED_BYTES` and the rest). */
  zipLimits?: ZipLimits;
}): ToolRegistry {
  const byName = new Map(TOOL_SPECS.map((t) => [t.name, t]));
  return {
    names: () => [...byName.keys()],
    specs: (names) => names.map((n) => byName.get(n)).filter((t): t is ToolSpec => Boolean(t)),
    async run(call, signal, context) {
      if (call.name === KNOWLEDGE_SEARCH) {
        if (!opts.orm || !context) throw new Error('knowledge_search is not available here');
        return runKnowledgeSearch(opts.orm, context.runId, call.args);
      }
      if (call.name === SAVED_TABLE_ROWS) {
        if (!opts.orm || !context) throw new Error('saved_table_rows is not available here');
        return runSavedTableRows(opts.orm, context.runId, call.args);
      }
      if (call.name === CALENDAR_FREE_SLOTS || call.name === CALENDAR_BOOK) {
        if (!opts.orm || !context) throw new Error(`${call.name} is not available here`);
        const run = call.name === CALENDAR_BOOK ? runCalendarBook : runCalendarFreeSlots;
        return run(opts.orm, context.runId, call.args);
      }
      if (FINANCE_TOOLS.includes(call.name)) {
        if (!opts.orm || !opts.storage || !context) throw new Error(`${call.name} is not available here`);
        return runFinanceTool(
          opts.orm,
          opts.storage,
          call.name,
          context.runId,
          call.args,
          opts.zipLimits ?? DEFAULT_ZIP_LIMITS,
        );
      }
      if (call.name !== 'http_request') throw new Error(`unknown tool ${call.name}`);
      const args = call.args as { url?: unknown; method?: unknown; headers?: unknown; body?: unknown };
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
    },
  };
}
