import type { AuditChange } from '../audit/record';
import type { ApprovePayload, ReviewPayload } from '../../workflows/messages';

/** A gate answer as far as its audit entry reads it (the answers of domain/runs/actions.ts). */
type AnswerSeen =
  | { gate: 'input' }
  | { gate: 'approve'; payload: Pick<ApprovePayload, 'approved' | 'comment'> }
  | { gate: 'review'; payload: Pick<ReviewPayload, 'accept' | 'correctedOutput'> };

/**
 * The audit entry of an accepted gate answer (docs/api/audit.md). It names the answer's kind and the
 * decision, never what the person typed: an input answer or a corrected output may hold anything.
 */
export function gateAuditChange(runId: string, actionId: string, answer: AnswerSeen): AuditChange {
  const base = { resourceType: 'run', resourceId: runId } as const;
  switch (answer.gate) {
    case 'input':
      return { ...base, action: 'run.input_submitted', details: { actionId } };
    case 'approve':
      return {
        ...base,
        action: answer.payload.approved ? 'run.approved' : 'run.rejected',
        details: { actionId, withComment: Boolean(answer.payload.comment) },
      };
    case 'review':
      return {
        ...base,
        action: 'run.reviewed',
        details: { actionId, accept: answer.payload.accept, corrected: answer.payload.correctedOutput !== undefined },
      };
  }
}
