import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { isDnsServer } from './net/dnsServers';
import { parseKeyRing, parseSecretsKey, type SecretKeyRing } from './secrets';
import { parseOpenAIModels, type OpenAIModelSetting } from './openaiModels';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zipGuard';

/**
 * Every setting the processes read, validated once at start-up and passed down: one module, and a
 * bad value stops the process with the variable named. Nothing else in the code base reads `process.env`.
 */
const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

/**
 * Proxy hops in front of the API whose `X-Forwarded-For` entries are trusted: a number, 0 (the default) for
 * none. `1`/`true` and `0`/`false`/empty are accepted as they were when this setting was a switch.
 */
const proxyHops = z
  .string()
  .regex(/^(\d{1,2}|true|false|)$/, 'must be a number of trusted proxy hops (0 = none)')
  .optional()
  .transform((v) => (v === 'true' ? 1 : !v || v === 'false' ? 0 : Number(v)));

/** `SVC_DNS_SERVERS`: a comma list of `ip`, `ipv4:port` or `[ipv6]:port`; unset or empty is the system resolver. */
const dnsServers = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .refine((list) => list.every(isDnsServer), 'must be a comma list of ip, ipv4:port or [ipv6]:port');

// Only validates the shape of SVC_SECRETS_KEYS on its own, whatever the current key.
const randomKeyText = Buffer.alloc(32, 1).toString('base64');

const intFrom = (def: number) => z.coerce.number().int().positive().default(def);

/** A whole number in `min..max` that may be unset (or empty, as compose passes an unset variable): off. */
const optionalInt = (min: number, max: number) =>
  z
    .union([z.literal(''), z.coerce.number().int().min(min).max(max)])
    .optional()
    .transform((v) => (v === '' ? undefined : v));

const envSchema = z.object({
  PORT: intFrom(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:54320/svc'),
  SVC_DB_POOL_MAX: intFrom(20),
  TEMPORAL_ADDRESS: z.string().default('localhost:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('runs'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SVC_PUBLIC_URL: z
    .string()
    .refine((v) => v === '' || /^https?:$/.test(URL.parse(v)?.protocol ?? ''), 'must be an http(s) URL')
    .optional(),
  SVC_TRUST_PROXY: proxyHops,
  SVC_COOKIE_SECURE: flag,
  SVC_CONSOLE_ORIGINS: z.string().optional(),
  SVC_SESSION_DAYS: intFrom(30),
  SVC_SIGNIN_RATE_PER_MIN: intFrom(10),
  SVC_SIGNUP_RATE_PER_MIN: intFrom(5),
  SVC_SHARED_RATE_PER_MIN: intFrom(60),
  SVC_SESSION_RATE_PER_MIN: intFrom(120),
  SVC_APP_RATE_PER_MIN: intFrom(10),
  SVC_TRIAL_CREDITS_USD: z.coerce.number().nonnegative().default(5),
  SVC_UNVERIFIED_RUN_LIMIT: z.coerce.number().int().nonnegative().default(3),
  SVC_MAX_JSON_BYTES: intFrom(1024 * 1024),
  SVC_MAX_UPLOAD_BYTES: intFrom(25 * 1024 * 1024),
  SVC_APP_UPLOAD_TOTAL_BYTES: intFrom(10 * 1024 * 1024),
  SVC_MAX_IMPORT_BYTES: intFrom(25 * 1024 * 1024),
  SVC_MAX_STREAMS: intFrom(20),
  SVC_MAX_KNOWLEDGE_CHARS: intFrom(5 * 1024 * 1024),
  SVC_MAX_INFLATED_BYTES: intFrom(DEFAULT_ZIP_LIMITS.maxInflatedBytes),
  SVC_MAX_INFLATED_ENTRY_BYTES: intFrom(DEFAULT_ZIP_LIMITS.maxEntryBytes),
  SVC_MAX_ZIP_ENTRIES: intFrom(DEFAULT_ZIP_LIMITS.maxEntries),
  SVC_MAX_ZIP_RATIO: intFrom(DEFAULT_ZIP_LIMITS.maxRatio),
  SVC_MAX_READ_BYTES: intFrom(10 * 1024 * 1024),
  SVC_STORAGE_URL: z
    .string()
    .refine((v) => v === '' || URL.canParse(v), 'must be a URL such as file:///var/lib/svc/storage')
    .optional(),
  SVC_S3_ENDPOINT: z
    .string()
    .refine((v) => v === '' || URL.canParse(v), 'must be a URL such as https://s3.eu-west-1.amazonaws.com')
    .optional(),
  SVC_S3_REGION: z.string().default('us-east-1'),
  SVC_S3_FORCE_PATH_STYLE: flag,
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  SVC_ALLOW_PRIVATE_WEBHOOKS: flag,
  SVC_ALLOW_PRIVATE_EGRESS: flag,
  SVC_DNS_SERVERS: dnsServers,
  SVC_SMTP_URL: z.string().optional(),
  SVC_MAIL_FROM: z.string().default('svc <no-reply@svc.local>'),
  SVC_MAIL_DIR: z.string().default(''),
  SVC_OPENAI_BASE_URL: z.string().optional(),
  SVC_OPENAI_API_KEY: z.string().optional(),
  SVC_OPENAI_MODELS: z.string().default(''),
  SVC_OPENAI_INPUT_PER_MTOK_USD: z.coerce.number().nonnegative().default(0),
  SVC_OPENAI_OUTPUT_PER_MTOK_USD: z.coerce.number().nonnegative().default(0),
  SVC_OPENAI_TIMEOUT_MS: intFrom(60_000),
  SVC_ASSISTANT_MODEL: z.string().optional(),
  SVC_RECOVERY_SWEEP_SECONDS: z.coerce.number().int().nonnegative().default(15),
  SVC_WEBHOOK_CONCURRENCY: intFrom(200),
  SVC_WEBHOOK_WORKSPACE_SLOTS: intFrom(25),
  SVC_WEBHOOK_INLINE_FANOUTS: z.coerce.number().int().nonnegative().default(10),
  SVC_MAX_WEBHOOKS: intFrom(25),
  SVC_MIN_SCHEDULE_MINUTES: intFrom(5),
  SVC_REFRESH_RATE_PER_MIN: intFrom(6),
  SVC_CONSOLE_DIR: z.string().optional(),
  NODE_ENV: z.string().optional(),
  SVC_SECRETS_KEY: z
    .string()
    .optional()
    .refine((v) => {
      if (!v) return true;
      try {
        parseSecretsKey(v);
        return true;
      } catch {
        return false;
      }
    }, 'must be 32 bytes, as base64 or 64 hex digits'),
  SVC_SECRETS_KEYS: z
    .string()
    .optional()
    .refine((v) => {
      try {
        parseKeyRing(randomKeyText, v ?? '');
        return true;
      } catch {
        return false;
      }
    }, 'must be a comma list of earlier keys, each 32 bytes as base64 or 64 hex digits'),
  SVC_CODEC_TOKEN: z.string().min(16, 'must be at least 16 characters').optional().or(z.literal('')),
  SVC_TWILIO_API_URL: z
    .string()
    .refine((v) => URL.canParse(v), 'must be a URL such as https://api.twilio.com')
    .default('https://api.twilio.com'),
  SVC_WHATSAPP_API_URL: z
    .string()
    .refine((v) => v === '' || URL.canParse(v), 'must be a URL such as https://graph.facebook.com')
    .optional(),
  SVC_WHATSAPP_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'must be a Graph API version such as v21.0')
    .default('v21.0'),
  SVC_CONVERSATION_IDLE_MINUTES: z.coerce.number().positive().default(30),
  SVC_CONVERSATION_TURNS_PER_RUN: intFrom(100),
  SVC_CONVERSATION_TURN_SECONDS: intFrom(60),
  SVC_TEMPORAL_UI_URL: z
    .string()
    .refine((v) => v === '' || URL.canParse(v), 'must be a URL such as http://127.0.0.1:8233')
    .optional(),
  SVC_RETENTION_DAYS: optionalInt(1, 36_500),
  SVC_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional().or(z.literal('')),
  SVC_WORKER_METRICS_PORT: optionalInt(0, 65535),
  SVC_WORKER_METRICS_HOST: z.string().default('127.0.0.1'),
  SVC_TEMPORAL_METRICS_PORT: optionalInt(1, 65535),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .refine((v) => v === '' || URL.canParse(v), 'must be a URL such as http://127.0.0.1:4318')
    .optional(),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  dbPoolMax: number;
  temporal: {
    address: string;
    namespace: string;
    taskQueue: string;
    /** Keys of the payload codec every Temporal client and worker installs (platform/temporal/payloadCodec.ts). */
    payloadKeys?: SecretKeyRing;
    /** Clients carry the active trace into the workflows they start (on with `OTEL_EXPORTER_OTLP_ENDPOINT`). */
    traced?: boolean;
  };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  publicUrl: string;
  /**
   * Proxies in front of the API: the client IP is the `X-Forwarded-For` entry this many from the right
   * (0: the socket's address, the header ignored).
   */
  trustProxyHops: number;
  cookieSecure: boolean;
  consoleOrigins: string[];
  sessionTtlMs: number;
  signInRatePerMin: number;
  signUpRatePerMin: number;
  /** Views of shared run dashboards per client IP per minute (docs/api/runs.md#sharing-a-run). */
  sharedRatePerMin: number;
  /** Requests a console user (all of their sessions together) may make per minute. */
  sessionRatePerMin: number;
  /** Runs one client IP (IPv6: its /64) may start through one published app per minute (docs/api/apps.md). */
  appRatePerMin: number;
  trialCreditsUsd: number;
  unverifiedRunLimit: number;
  maxJsonBytes: number;
  maxUploadBytes: number;
  /** All files of one public app submission together (docs/api/apps.md#public-pages). */
  appUploadTotalBytes: number;
  /** The largest bank export a finance import reads (docs/api/finance.md). */
  maxImportBytes: number;
  /** Characters of text one knowledge document may hold (docs/api/knowledge.md). */
  maxKnowledgeChars: number;
  /** What an XLSX (zip) file from a caller may inflate to before a parser sees it (docs/api/limits.md). */
  zipLimits: ZipLimits;
  /** Bytes of rows one read of a data source may hold (docs/api/data-sources.md). */
  maxReadBytes: number;
  /** Open event streams per workspace in one API process (docs/api/limits.md). */
  maxStreams: number;
  /** Where file bytes live: a `file://` directory or `s3://bucket/prefix` (docs/api/files.md). */
  storageUrl: string;
  /**
   * How `s3://` storage reaches its service: an endpoint for S3-compatible servers (none: AWS), the region,
   * path-style addressing, and static credentials (none: the AWS SDK's default chain, e.g. an instance role).
   */
  s3: {
    endpoint?: string;
    region: string;
    forcePathStyle: boolean;
    credentials?: { accessKeyId: string; secretAccessKey: string };
  };
  /** Webhook URLs may be private addresses (local development); nothing else is relaxed by it. */
  allowPrivateWebhooks: boolean;
  /**
   * Every outbound call but webhook deliveries (the `http_request` tool) may reach private addresses
   * (tests, local development); off, they stay behind the public-address guard (docs/api/limits.md).
   */
  allowPrivateEgress: boolean;
  /**
   * The DNS servers the public-address guard asks (webhook registration and delivery, the `http_request` tool);
   * empty: the system resolver. Tests and drills set their own server on 127.0.0.1 (docs/architecture.md).
   */
  dnsServers: string[];
  smtpUrl?: string;
  mailFrom: string;
  /**
   * Where mail goes while `smtpUrl` is unset: one file per mail, readable by the process's user only. Never the
   * log: a mail carries one-time links (e-mail verification, one-click approvals), which are credentials.
   */
  mailDir: string;
  /** Any OpenAI-compatible chat-completions endpoint; models appear as `openai/<name>`. */
  openai: {
    baseUrl?: string;
    apiKey?: string;
    /** Each with its own prices (`SVC_OPENAI_MODELS=name:in:out,...`; docs/api/agents.md). */
    models: OpenAIModelSetting[];
    timeoutMs: number;
    /** `openai/<name>` of a configured model that answers the copilots; none: their deterministic rules. */
    assistantModel?: string;
  };
  /**
   * How often (and after how long) the API starts the workflow of a run left in `queued` without one,
   * as a process killed between the commit and the start leaves it. 0 turns the sweep off.
   */
  recoverySweepSeconds: number;
  /** Delivery attempts a worker process makes at once (each at most 10 s), on its webhook task queue. */
  webhookConcurrency: number;
  /**
   * Deliveries of one workspace in flight at once, across all workers; the rest wait without holding
   * an activity slot, so one workspace's hanging receivers cannot take every slot.
   */
  webhookWorkspaceSlots: number;
  /**
   * Fan-outs a worker process makes at once inside the workflow task of the run that announced them (a
   * local activity); past that, or at 0, a fan-out is an activity on the webhook task queue. Each takes
   * one of the runs worker's local-activity slots (100) while its first attempts last, so receivers that
   * hang hold at most this many of them.
   */
  webhookInlineFanOuts: number;
  /** Live (not deleted) webhook subscriptions a workspace may hold; one more is 409 `conflict`. */
  maxWebhooks: number;
  /** The fewest minutes between two fires of a flow's schedule or a saved table's refresh cron. */
  minScheduleMinutes: number;
  /** Manual refreshes of one saved table per minute; one more is 429 `rate_limited`. */
  refreshRatePerMin: number;
  /** The console's built files, served under `/console/` (docs/console.md). */
  consoleDir: string;
  /** Temporal UI's address, for the console's link from a run to its workflow; none when unset. */
  temporalUiUrl?: string;
  /**
   * The AES-256-GCM keys secrets are stored under (platform/secrets.ts): `SVC_SECRETS_KEY` seals,
   * `SVC_SECRETS_KEYS` (earlier keys) only open. Required in production, generated into the data dir by
   * `npm run dev` and set by `npm test`. The same ring encrypts Temporal payloads (`temporal.payloadKeys`).
   */
  secretKeys?: SecretKeyRing;
  /** Bearer token of `POST /codec/{encode,decode}` for Temporal UI and CLI; unset, those routes answer 404. */
  codecToken?: string;
  /** The phone provider's REST base URL, Twilio's or a compatible one (docs/api/phone.md). */
  twilioApiUrl: string;
  /** The WhatsApp Cloud API (Graph API) that replies go to (docs/api/whatsapp.md); tests point it at a fake. */
  whatsapp: { apiUrl: string; apiVersion: string };
  /** Retention of events, deliveries and messages (docs/operations.md#retention). */
  retention: {
    /** `SVC_RETENTION_DAYS`: the days every plan keeps; unset, each plan's own (domain/retention/policy.ts). */
    days?: number;
    /** Rows one delete statement looks at: each batch is its own short transaction. */
    batchSize: number;
  };
  /** What an operator scrapes and traces (docs/operations.md). */
  observability: {
    /** Bearer token of the API's `GET /metrics`; unset, it answers 404. */
    metricsToken?: string;
    /** The worker's own `/metrics` (`SVC_WORKER_METRICS_PORT`, on `SVC_WORKER_METRICS_HOST`); unset, none. */
    workerMetrics?: { host: string; port: number };
    /** The Temporal SDK's Prometheus exporter of the worker (`SVC_TEMPORAL_METRICS_PORT`, same host); unset, none. */
    temporalMetrics?: { host: string; port: number };
    /** OTLP/HTTP collector the traces go to (`OTEL_EXPORTER_OTLP_ENDPOINT`); unset, no tracing. */
    otlpEndpoint?: string;
  };
  /** Conversations (docs/api/conversations.md). */
  conversations: {
    /** A conversation without a message for this long ends (`SVC_CONVERSATION_IDLE_MINUTES`, fractions allowed). */
    idleMinutes: number;
    /** Turns one workflow run takes before it continues as new (`SVC_CONVERSATION_TURNS_PER_RUN`). */
    turnsPerRun: number;
    /** How long a synchronous turn waits for its reply before 503 (`SVC_CONVERSATION_TURN_SECONDS`). */
    turnTimeoutMs: number;
  };
}

/** Reads and validates the environment; throws with every offending variable named. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.SVC_SECRETS_KEY) {
    throw new Error('invalid configuration:\n  SVC_SECRETS_KEY: required when NODE_ENV=production');
  }
  let openaiModels: OpenAIModelSetting[];
  try {
    openaiModels = parseOpenAIModels(e.SVC_OPENAI_MODELS, {
      inputPerMTokUsd: e.SVC_OPENAI_INPUT_PER_MTOK_USD,
      outputPerMTokUsd: e.SVC_OPENAI_OUTPUT_PER_MTOK_USD,
    });
  } catch (err) {
    throw new Error(`invalid configuration:\n  SVC_OPENAI_MODELS: ${(err as Error).message}`);
  }
  const assistant = e.SVC_ASSISTANT_MODEL;
  if (assistant && !(e.SVC_OPENAI_BASE_URL && openaiModels.some((m) => `openai/${m.name}` === assistant))) {
    throw new Error(
      `invalid configuration:\n  SVC_ASSISTANT_MODEL: ${assistant} is not openai/<name> of a model in SVC_OPENAI_MODELS (with SVC_OPENAI_BASE_URL set)`,
    );
  }
  const secretKeys = e.SVC_SECRETS_KEY ? parseKeyRing(e.SVC_SECRETS_KEY, e.SVC_SECRETS_KEYS) : undefined;
  // every URL handed to a caller starts with this, never with the request's Host
  const publicUrl = (e.SVC_PUBLIC_URL || `http://127.0.0.1:${e.PORT}`).replace(/(?<!\/)\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dbPoolMax: e.SVC_DB_POOL_MAX,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      payloadKeys: secretKeys,
      traced: Boolean(e.OTEL_EXPORTER_OTLP_ENDPOINT),
    },
    logLevel: e.LOG_LEVEL,
    publicUrl,
    trustProxyHops: e.SVC_TRUST_PROXY,
    cookieSecure: e.SVC_COOKIE_SECURE,
    // the console is served at SVC_PUBLIC_URL, so its origin is always allowed; the setting adds others
    consoleOrigins: [
      ...new Set([
        new URL(publicUrl).origin,
        ...(e.SVC_CONSOLE_ORIGINS ?? `http://localhost:${e.PORT}`)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ]),
    ],
    sessionTtlMs: e.SVC_SESSION_DAYS * 24 * 3600 * 1000,
    signInRatePerMin: e.SVC_SIGNIN_RATE_PER_MIN,
    signUpRatePerMin: e.SVC_SIGNUP_RATE_PER_MIN,
    sharedRatePerMin: e.SVC_SHARED_RATE_PER_MIN,
    sessionRatePerMin: e.SVC_SESSION_RATE_PER_MIN,
    appRatePerMin: e.SVC_APP_RATE_PER_MIN,
    trialCreditsUsd: e.SVC_TRIAL_CREDITS_USD,
    unverifiedRunLimit: e.SVC_UNVERIFIED_RUN_LIMIT,
    maxJsonBytes: e.SVC_MAX_JSON_BYTES,
    maxUploadBytes: e.SVC_MAX_UPLOAD_BYTES,
    appUploadTotalBytes: e.SVC_APP_UPLOAD_TOTAL_BYTES,
    maxImportBytes: e.SVC_MAX_IMPORT_BYTES,
    maxKnowledgeChars: e.SVC_MAX_KNOWLEDGE_CHARS,
    zipLimits: {
      maxInflatedBytes: e.SVC_MAX_INFLATED_BYTES,
      maxEntryBytes: e.SVC_MAX_INFLATED_ENTRY_BYTES,
      maxEntries: e.SVC_MAX_ZIP_ENTRIES,
      maxRatio: e.SVC_MAX_ZIP_RATIO,
    },
    maxReadBytes: e.SVC_MAX_READ_BYTES,
    maxStreams: e.SVC_MAX_STREAMS,
    storageUrl: e.SVC_STORAGE_URL || pathToFileURL(path.resolve(process.cwd(), '.data/storage')).href,
    s3: {
      endpoint: e.SVC_S3_ENDPOINT || undefined,
      region: e.SVC_S3_REGION,
      forcePathStyle: e.SVC_S3_FORCE_PATH_STYLE,
      credentials:
        e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
          ? { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY }
          : undefined,
    },
    allowPrivateWebhooks: e.SVC_ALLOW_PRIVATE_WEBHOOKS,
    allowPrivateEgress: e.SVC_ALLOW_PRIVATE_EGRESS,
    dnsServers: e.SVC_DNS_SERVERS,
    smtpUrl: e.SVC_SMTP_URL || undefined,
    mailFrom: e.SVC_MAIL_FROM,
    mailDir: path.resolve(process.cwd(), e.SVC_MAIL_DIR || '.data/mail'),
    openai: {
      baseUrl: e.SVC_OPENAI_BASE_URL || undefined,
      apiKey: e.SVC_OPENAI_API_KEY || undefined,
      models: openaiModels,
      timeoutMs: e.SVC_OPENAI_TIMEOUT_MS,
      assistantModel: e.SVC_ASSISTANT_MODEL || undefined,
    },
    recoverySweepSeconds: e.SVC_RECOVERY_SWEEP_SECONDS,
    webhookConcurrency: e.SVC_WEBHOOK_CONCURRENCY,
    webhookWorkspaceSlots: e.SVC_WEBHOOK_WORKSPACE_SLOTS,
    webhookInlineFanOuts: e.SVC_WEBHOOK_INLINE_FANOUTS,
    maxWebhooks: e.SVC_MAX_WEBHOOKS,
    minScheduleMinutes: e.SVC_MIN_SCHEDULE_MINUTES,
    refreshRatePerMin: e.SVC_REFRESH_RATE_PER_MIN,
    consoleDir: e.SVC_CONSOLE_DIR || path.resolve(process.cwd(), 'console/dist'),
    temporalUiUrl: e.SVC_TEMPORAL_UI_URL?.replace(/(?<!\/)\/+$/, '') || undefined,
    secretKeys,
    codecToken: e.SVC_CODEC_TOKEN || undefined,
    twilioApiUrl: e.SVC_TWILIO_API_URL.replace(/(?<!\/)\/+$/, ''),
    whatsapp: {
      apiUrl: e.SVC_WHATSAPP_API_URL?.replace(/(?<!\/)\/+$/, '') || 'https://graph.facebook.com',
      apiVersion: e.SVC_WHATSAPP_API_VERSION,
    },
    retention: { days: e.SVC_RETENTION_DAYS, batchSize: 1000 },
    observability: {
      metricsToken: e.SVC_METRICS_TOKEN || undefined,
      workerMetrics:
        e.SVC_WORKER_METRICS_PORT === undefined
          ? undefined
          : { host: e.SVC_WORKER_METRICS_HOST, port: e.SVC_WORKER_METRICS_PORT },
      temporalMetrics:
        e.SVC_TEMPORAL_METRICS_PORT === undefined
          ? undefined
          : { host: e.SVC_WORKER_METRICS_HOST, port: e.SVC_TEMPORAL_METRICS_PORT },
      otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/(?<!\/)\/+$/, '') || undefined,
    },
    conversations: {
      idleMinutes: e.SVC_CONVERSATION_IDLE_MINUTES,
      turnsPerRun: e.SVC_CONVERSATION_TURNS_PER_RUN,
      turnTimeoutMs: e.SVC_CONVERSATION_TURN_SECONDS * 1000,
    },
  };
}
