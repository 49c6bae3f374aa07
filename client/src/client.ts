/** The `Svc` client: configuration plus one property per resource. */
import { SvcError } from './errors.js';
import { HttpClient } from './http.js';
import type { FetchLike, RequestSpec } from './http.js';
import { readEnv } from './runtime.js';
import { Agents } from './resources/agents.js';
import { ApiKeys } from './resources/api-keys.js';
import { Apps } from './resources/apps.js';
import { Phone } from './resources/phone.js';
import { Files } from './resources/files.js';
import { Folders } from './resources/folders.js';
import { LocalRuns } from './resources/local-runs.js';
import { Finance } from './resources/finance.js';
import { PriceLists } from './resources/price-lists.js';
import { OutputConnections } from './resources/output-connections.js';
import { Audit } from './resources/audit.js';
import { Projects } from './resources/projects.js';
import { Flows } from './resources/flows.js';
import { FlowRuns } from './resources/flow-runs.js';
import { Knowledge } from './resources/knowledge.js';
import { Evals } from './resources/evals.js';
import { Tutor } from './resources/tutor.js';
import { Copilot } from './resources/copilot.js';
import { Proposals } from './resources/proposals.js';
import { Runs } from './resources/runs.js';
import { Search } from './resources/search.js';
import { UsageResource } from './resources/usage.js';
import { WhatsApp } from './resources/whatsapp.js';
import { Webhooks } from './resources/webhooks.js';
import { DataSources } from './resources/data-sources.js';
import { SavedTables } from './resources/saved-tables.js';
import { Workspace } from './resources/workspace.js';

/** Options of the {@link Svc} constructor. */
export interface SvcOptions {
  /** API key (`svc_live_...`). Defaults to `process.env.SVC_API_KEY` where `process` exists. */
  apiKey?: string;
  /** Service address, without `/v1`. Defaults to `http://localhost:3000`. */
  baseUrl?: string;
  /** `fetch` implementation; defaults to `globalThis.fetch`. Inject one to proxy, log or test. */
  fetch?: FetchLike;
  /**
   * Retries after the first attempt (default 2), of failures that are safe to repeat: 429, 5xx and network
   * errors for GET, DELETE and `runs.create`; only 429, 503 and refused connections for other writes.
   */
  maxRetries?: number;
  /** Timeout of each attempt in ms (default 60000). */
  timeoutMs?: number;
}

/** Default service address. */
export const DEFAULT_BASE_URL = 'http://localhost:3000';

/**
 * Client of the svc API.
 *
 * ```ts
 * const svc = new Svc({ apiKey: process.env.SVC_API_KEY, baseUrl: 'https://svc.example.com' });
 * const run = await svc.runs.create({ agentId, input: { question: 'hi' } });
 * const done = await svc.runs.wait(run.id);
 * ```
 */
export class Svc {
  /** Agent definitions, their versions, and the catalogues of presets, models and tools. */
  readonly agents: Agents;
  /** Evals of agents and their runs (each case a real, charged run). */
  readonly evals: Evals;
  /** Tutor sessions with an agent (each message a charged run). */
  readonly tutor: Tutor;
  /** The agent copilot and the data-source copilot. */
  readonly copilot: Copilot;
  /** Improvement proposals: suggested changes to agents, accepted as new versions. */
  readonly proposals: Proposals;
  /** Projects that group agents, and their members. */
  readonly projects: Projects;
  /** WhatsApp accounts answered by agents, and their conversations. */
  readonly whatsapp: WhatsApp;
  /** Flows: triggers and steps that run in order. */
  readonly flows: Flows;
  /** Runs of flows: read, approve, cancel. */
  readonly flowRuns: FlowRuns;
  /** Price lists, pricing rules and quotes: what the workspace charges its own customers. */
  readonly priceLists: PriceLists;
  /** File library uploads and downloads. */
  readonly files: Files;
  /** The file library's folders. */
  readonly folders: Folders;
  /** Finance: bank imports, transactions, categories, rules, summary, export, reconciliation and report runs. */
  readonly finance: Finance;
  /** Runs: create, steer, wait, list. */
  readonly runs: Runs;
  /** Runs a local runner executed itself, reported in batches. */
  readonly localRuns: LocalRuns;
  /** Webhook subscriptions. */
  readonly webhooks: Webhooks;
  /** Save-output connections: where succeeded runs' outputs are sent. */
  readonly outputConnections: OutputConnections;
  /** Usage totals and balance. */
  readonly usage: UsageResource;
  /** Published apps, their templates, usage and custom domains. */
  readonly apps: Apps;
  /** Phone numbers, calls, voices and models, and the booking calendar. */
  readonly phone: Phone;
  /** API key management. */
  readonly apiKeys: ApiKeys;
  /** The audit log of sensitive writes (an API key needs `keys:manage`). */
  readonly audit: Audit;
  /** Knowledge documents and their search. */
  readonly knowledge: Knowledge;
  /** Workspace search. */
  readonly search: Search;
  /** Data sources: databases and uploaded sheets, read without SQL. */
  readonly dataSources: DataSources;
  /** Saved tables: reads of data sources kept as tables. */
  readonly savedTables: SavedTables;
  /** The workspace's members and their roles. */
  readonly workspace: Workspace;
  /** Resolved service address (no trailing slash). */
  readonly baseUrl: string;

  private readonly http: HttpClient;

  /**
   * @throws {SvcError} `missing_api_key` when no key is given and `SVC_API_KEY` is unset;
   * `invalid_option` for a malformed `baseUrl`, `maxRetries` or `timeoutMs`, or when no `fetch` exists
   */
  constructor(options: SvcOptions = {}) {
    const apiKey = options.apiKey ?? readEnv('SVC_API_KEY');
    if (!apiKey) {
      throw new SvcError({
        code: 'missing_api_key',
        message: 'No API key: pass `apiKey` to new Svc() or set the SVC_API_KEY environment variable',
      });
    }
    const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]/i.test(baseUrl)) invalid(`baseUrl must be an http(s) URL, got ${options.baseUrl}`);
    const maxRetries = options.maxRetries ?? 2;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) invalid('maxRetries must be an integer >= 0');
    const timeoutMs = options.timeoutMs ?? 60_000;
    if (!(timeoutMs > 0)) invalid('timeoutMs must be > 0');
    const fetchFn: FetchLike | undefined =
      options.fetch ??
      (typeof globalThis.fetch === 'function' ? (url, init) => globalThis.fetch(url, init) : undefined);
    if (!fetchFn) invalid('No fetch available: pass `fetch` (Node >= 18 has one built in)');

    this.baseUrl = baseUrl;
    this.http = new HttpClient({ apiKey, baseUrl, fetch: fetchFn, maxRetries, timeoutMs });
    this.agents = new Agents(this.http);
    this.evals = new Evals(this.http);
    this.tutor = new Tutor(this.http);
    this.copilot = new Copilot(this.http);
    this.proposals = new Proposals(this.http);
    this.projects = new Projects(this.http);
    this.whatsapp = new WhatsApp(this.http);
    this.flows = new Flows(this.http);
    this.flowRuns = new FlowRuns(this.http);
    this.priceLists = new PriceLists(this.http);
    this.files = new Files(this.http);
    this.folders = new Folders(this.http);
    this.finance = new Finance(this.http);
    this.runs = new Runs(this.http);
    this.localRuns = new LocalRuns(this.http);
    this.webhooks = new Webhooks(this.http);
    this.outputConnections = new OutputConnections(this.http);
    this.usage = new UsageResource(this.http);
    this.apps = new Apps(this.http);
    this.phone = new Phone(this.http);
    this.apiKeys = new ApiKeys(this.http);
    this.audit = new Audit(this.http);
    this.knowledge = new Knowledge(this.http);
    this.search = new Search(this.http);
    this.dataSources = new DataSources(this.http);
    this.savedTables = new SavedTables(this.http);
    this.workspace = new Workspace(this.http);
  }

  /**
   * Escape hatch for routes this version of the client has no method for yet: sends a request with this client's
   * authentication, retries and error mapping, and returns the parsed JSON body.
   * @throws {SvcError} as the resource methods do
   */
  request<T = unknown>(spec: RequestSpec): Promise<T> {
    return this.http.request<T>(spec);
  }
}

function invalid(message: string): never {
  throw new SvcError({ code: 'invalid_option', message });
}
