import { listObjects, readSource } from '../dataSources/browse';
import type { SourceDeps } from '../dataSources/connection';
import { findDataSource } from '../dataSources/dataSources';
import type { ReadResult } from '../dataSources/drivers/types';
import type { ReadRequest } from '../dataSources/readPlan';
import type { ConversationDeps } from '../conversations';
import { ApiError } from '../errors';
import type { Identity } from '../identity/identity';
import { copilotTurn, isRecord } from './turn';

export interface DataSourceCopilotReply {
  conversationId: string;
  reply: string;
  runId: string | null;
  /** The structured read the copilot answered with (never SQL), when it did. */
  read: ReadRequest | null;
  /** What that read returned, executed through the data source's own read code. */
  result: ReadResult | null;
}

/**
 * The data-source copilot (docs/api/copilots.md): a turn of the source's copilot conversation with the
 * source's objects in its context. The copilot answers with a structured read, which is executed here
 * through the same code as `POST /v1/data-sources/{id}/read` (columns checked against the live schema,
 * values as parameters); the reply then says what it found. A read the source refuses is reported in
 * the reply. Throws `not_found` for a data source not in the workspace, 409 when the source cannot be
 * reached, and what a turn throws.
 */
export async function askDataSourceCopilot(
  deps: ConversationDeps & { sources: SourceDeps },
  identity: Identity,
  dataSourceId: string,
  body: { question: string; conversationId?: string },
  messageId: string | null,
): Promise<DataSourceCopilotReply> {
  const { em } = deps;
  const source = await findDataSource(em, identity.workspaceId, dataSourceId);
  const { objects } = await listObjects(em, deps.sources, identity.workspaceId, source.id);
  const turn = await copilotTurn(deps, identity, {
    channel: 'data_source_copilot',
    subjectId: source.id,
    context: {
      copilot: 'data_source',
      dataSource: { id: source.id, name: source.name, type: source.type },
      objects: objects.slice(0, 200).map((o) => o.name),
    },
    text: body.question,
    conversationId: body.conversationId,
    messageId,
  });
  const base = { conversationId: turn.conversationId, runId: turn.runId };
  const read =
    isRecord(turn.output) && isRecord(turn.output.read) ? (turn.output.read as unknown as ReadRequest) : null;
  if (!read) return { ...base, reply: turn.reply, read: null, result: null };
  try {
    const result = await readSource(em, deps.sources, identity.workspaceId, source.id, read);
    const found = `${result.rows.length} row${result.rows.length === 1 ? '' : 's'} of ${read.object}${result.truncated ? ' (more exist)' : ''}.`;
    return { ...base, reply: `${turn.reply} Found ${found}`, read, result };
  } catch (err) {
    if (!(err instanceof ApiError) || (err.code !== 'validation_error' && err.code !== 'not_found')) throw err;
    const issues = (err.details?.issues ?? []) as Array<{ message: string }>;
    const why = issues.map((i) => i.message).join('; ') || err.message;
    return { ...base, reply: `${turn.reply} I could not read it: ${why}`, read, result: null };
  }
}
