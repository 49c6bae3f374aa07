import type { TutorReply } from '@svc/client';
import { ApiError, baseHeaders, readResponse } from '../../api';

/**
 * Sends one message of a tutor session under an `Idempotency-Key` of its own, so that when the reply is late
 * (503 `unavailable`) asking again with the same key gets that reply instead of a second run and charge
 * (docs/api/tutor.md). Two attempts in all.
 */
export async function sendTutorMessage(sessionId: string, text: string): Promise<TutorReply> {
  const key = crypto.randomUUID();
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(`/v1/tutor/sessions/${sessionId}/messages`, {
        method: 'POST',
        headers: { ...baseHeaders(), 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify({ text }),
        credentials: 'same-origin',
      });
    } catch {
      throw new ApiError(0, 'network_error', 'The service could not be reached', null);
    }
    if (res.status === 503 && attempt < 2) continue;
    return readResponse<TutorReply>(res);
  }
}
