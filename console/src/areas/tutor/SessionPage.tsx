import type { TutorSession } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../api';
import { ChatThread } from '../../components/ChatThread';
import { Empty, ErrorBox, Loading, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useAgentNames } from '../../hooks';
import { useSession } from '../../session';
import { sendTutorMessage } from './sendMessage';

/** One tutor session as a chat panel: its messages, a message box while it is active, and its end. */
export function SessionPage() {
  const { id = '' } = useParams();
  const session = useQuery({
    queryKey: ['tutor', 'session', id],
    queryFn: () => api<TutorSession>(`/v1/tutor/sessions/${id}`),
  });
  return (
    <section>
      <nav className="crumbs" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to="/tutor">Tutor</Link>
          </li>
          <li aria-current="page">{session.data?.topic ?? 'Session'}</li>
        </ol>
      </nav>
      <QueryState query={session} what="the session">
        {(s) => <Chat session={s} />}
      </QueryState>
    </section>
  );
}

function Chat({ session: s }: { session: TutorSession }) {
  const { can } = useSession();
  const client = useQueryClient();
  const agentName = useAgentNames();
  const [text, setText] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: ['tutor'] });
  const send = useMutation({
    mutationFn: (message: string) => sendTutorMessage(s.id, message),
    onSuccess: () => setText(''),
    onSettled: refresh,
  });
  const end = useMutation({
    mutationFn: () => api<TutorSession>(`/v1/tutor/sessions/${s.id}/end`, { method: 'POST' }),
    onSettled: refresh,
  });
  const messages = s.messages ?? [];
  const active = s.status === 'active';
  return (
    <>
      <h1>
        {s.topic} <span className="badge">{s.status}</span>
      </h1>
      <p className="small muted">
        With {agentName(s.agentId)} · started {when(s.createdAt)}
        {s.endedAt ? ` · ended ${when(s.endedAt)}` : ''}
      </p>
      {messages.length === 0 && !send.isPending ? (
        <Empty>No messages yet: ask the first question.</Empty>
      ) : (
        <ChatThread
          label="Messages"
          userName="You"
          agentName={agentName(s.agentId)}
          entries={[
            ...messages.map((m) => ({
              key: String(m.seq),
              role: m.role,
              text: m.text,
              at: m.createdAt,
              extra: m.runId ? <Link to={`/runs/${m.runId}`}>run</Link> : null,
            })),
            // the message on its way shows at once; the session's messages replace it when the reply is in
            ...(send.isPending && send.variables
              ? [{ key: 'sending', role: 'user' as const, text: send.variables }]
              : []),
          ]}
        />
      )}
      {send.isPending ? <Loading what="Waiting for the reply" /> : null}
      <ErrorBox error={send.error} title="Could not send" />
      {active && can('runs:write') ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) send.mutate(text.trim());
          }}
        >
          <div className="field">
            <label htmlFor="tutor-message">Your message</label>
            <textarea
              id="tutor-message"
              rows={3}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                // Enter sends, Shift+Enter starts a new line, as in chat apps
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  if (text.trim() && !send.isPending) send.mutate(text.trim());
                }
              }}
            />
          </div>
          <div className="actions">
            <button className="primary" type="submit" disabled={send.isPending || !text.trim()}>
              Send
            </button>
            <button type="button" disabled={end.isPending} onClick={() => end.mutate()}>
              End session
            </button>
          </div>
        </form>
      ) : null}
      {!active ? <p className="notice">This session has ended ({s.endedReason ?? 'ended'}).</p> : null}
      <ErrorBox error={end.error} title="Could not end the session" />
    </>
  );
}
