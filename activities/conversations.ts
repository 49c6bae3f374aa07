import { Context } from '@temporalio/activity';
import {
  awaitTurnRun,
  beginTurn,
  closeConversation,
  finishTurn,
  sendConversationReply,
  type ConversationExecDeps,
} from '../domain/conversations/execution';
import type { ConversationActivities } from '../workflows/conversationMessages';

/** The conversation workflow's activities: Temporal's side of domain/conversations/execution.ts. */
export function createConversationActivities(deps: ConversationExecDeps): ConversationActivities {
  return {
    beginTurn: (conversationId, message) => beginTurn(deps, conversationId, message),
    async awaitTurnRun(runId) {
      const ctx = Context.current();
      await awaitTurnRun(deps.orm, runId, () => ctx.heartbeat(), ctx.cancellationSignal);
    },
    finishTurn: (conversationId, messageId, runId) => finishTurn(deps.orm, conversationId, messageId, runId),
    sendConversationReply: (conversationId, replySeq) => sendConversationReply(deps, conversationId, replySeq),
    closeConversation: (conversationId, reason) => closeConversation(deps.orm, conversationId, reason),
  };
}
