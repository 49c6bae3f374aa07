import { NotPublicAddressError, type Resolver } from '../../platform/net/publicAddress';
import { safeRequest } from '../../platform/net/safeHttp';

/** Where and how replies are sent: `SVC_WHATSAPP_API_URL`, its version, and the outbound guard's settings. */
export interface GraphDeps {
  apiUrl: string;
  apiVersion: string;
  /** `SVC_ALLOW_PRIVATE_EGRESS`: the Graph API may be a private address (tests, local development). */
  allowPrivate: boolean;
  resolver?: Resolver;
}

/**
 * A send the Graph API did not accept. `retryable: false` (a 4xx other than 408/429: a bad token, an unknown
 * recipient) means trying again cannot help; `retryAfterMs` is the provider's `Retry-After` on a 429 or 503.
 * Messages never contain the access token.
 */
export class GraphError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

const TIMEOUT_MS = 10_000;

function retryAfter(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** What one message is: a free-form text, or an approved template (outside the 24-hour window). */
export type OutboundContent = { text: string } | { template: { name: string; language: string } };

/**
 * Sends one message through the Cloud API: `POST {apiUrl}/{SVC_WHATSAPP_API_VERSION}/{phoneNumberId}/messages`
 * with the account's token, one HTTP call (retries are the caller's, docs/architecture.md#retries). Answers the
 * message id the API gave it (`wamid.…`), which its status webhooks name, or null when the answer names none.
 * @throws {GraphError} for any answer but 2xx, for a network failure or timeout (retryable), for an address the
 *   outbound guard refuses (not retryable)
 */
export async function sendMessage(
  deps: GraphDeps,
  req: { phoneNumberId: string; accessToken: string; to: string; content: OutboundContent },
): Promise<string | null> {
  const url = `${deps.apiUrl}/${deps.apiVersion}/${encodeURIComponent(req.phoneNumberId)}/messages`;
  const content =
    'text' in req.content
      ? { type: 'text', text: { preview_url: false, body: req.content.text } }
      : {
          type: 'template',
          template: { name: req.content.template.name, language: { code: req.content.template.language } },
        };
  const body = JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', to: req.to, ...content });
  let res;
  try {
    res = await safeRequest(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${req.accessToken}` },
      body,
      timeoutMs: TIMEOUT_MS,
      allowPrivate: deps.allowPrivate,
      resolver: deps.resolver,
      maxResponseBytes: 16 * 1024,
    });
  } catch (err) {
    // SVC_WHATSAPP_API_URL itself is refused by the guard: no retry can change that
    if (err instanceof NotPublicAddressError)
      throw new GraphError(`Graph API address not public: ${err.reason}`, false);
    throw new GraphError(`Graph API unreachable: ${(err as Error).message}`, true);
  }
  if (res.status >= 200 && res.status < 300) {
    try {
      const parsed = JSON.parse(res.body.toString('utf8')) as { messages?: Array<{ id?: unknown }> };
      const id = parsed.messages?.[0]?.id;
      return typeof id === 'string' ? id.slice(0, 255) : null;
    } catch {
      return null;
    }
  }
  const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
  const wait = res.status === 429 || res.status === 503 ? retryAfter(res.headers['retry-after']) : undefined;
  throw new GraphError(`Graph API answered ${res.status}`, retryable, res.status, wait);
}
