import type { ReadParams, ReadResult } from '@svc/client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { baseHeaders, readResponse } from '../../api';
import { ErrorBox } from '../../components/States';
import { json } from '../../components/format';
import { ResultGrid } from './ResultGrid';

interface CopilotAnswer {
  conversationId: string;
  reply: string;
  runId: string | null;
  read: ReadParams | null;
  result: ReadResult | null;
}

interface Turn extends CopilotAnswer {
  question: string;
}

/**
 * One copilot turn. The message's id travels as `Idempotency-Key`, so the one retry after a late reply
 * (503) gets the first answer rather than a second charged run (docs/api/copilots.md).
 */
async function ask(sourceId: string, question: string, conversationId: string | null): Promise<CopilotAnswer> {
  const key = crypto.randomUUID();
  const send = () =>
    fetch(`/v1/data-sources/${sourceId}/copilot`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { ...baseHeaders(), 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify({ question, ...(conversationId ? { conversationId } : {}) }),
    });
  let res = await send();
  if (res.status === 503) res = await send();
  return readResponse<CopilotAnswer>(res);
}

/** The data-source copilot as a chat: each answer shows the structured read it made and the rows it found. */
export function CopilotPanel({ sourceId }: { sourceId: string }) {
  const [question, setQuestion] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const conversationId = turns.at(-1)?.conversationId ?? null;
  const send = useMutation({
    mutationFn: (q: string) => ask(sourceId, q, conversationId).then((a) => ({ ...a, question: q })),
    onSuccess: (t) => {
      setTurns((cur) => [...cur, t]);
      setQuestion('');
    },
  });
  return (
    <section className="panel" aria-labelledby="copilot-title">
      <h2 id="copilot-title">Ask the copilot</h2>
      <p className="small muted">
        It answers with a structured read of this source (never SQL), run like the builder's. Each question is a charged
        run.
      </p>
      {turns.length > 0 ? (
        <ol className="chat" aria-label="Conversation">
          {turns.map((t, i) => (
            <li key={i}>
              <p>
                <span className="who">You:</span> {t.question}
              </p>
              <p data-testid="copilot-reply">
                <span className="who">Copilot:</span> {t.reply}
              </p>
              {t.read ? (
                <details>
                  <summary>The read it made</summary>
                  <pre className="json">{json(t.read)}</pre>
                </details>
              ) : null}
              {t.result ? (
                <ResultGrid label={`Copilot answer ${i + 1}`} columns={t.result.columns} rows={t.result.rows} />
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (question.trim()) send.mutate(question.trim());
        }}
      >
        <div className="field">
          <label htmlFor="copilot-question">Question</label>
          <textarea
            id="copilot-question"
            rows={2}
            maxLength={10_000}
            value={question}
            placeholder="first 5 people where city = Berlin"
            onChange={(e) => setQuestion(e.target.value)}
          />
        </div>
        <ErrorBox error={send.error} title="The copilot could not answer" />
        <button className="primary" type="submit" disabled={!question.trim() || send.isPending}>
          {send.isPending ? 'Asking…' : 'Ask'}
        </button>
      </form>
    </section>
  );
}
