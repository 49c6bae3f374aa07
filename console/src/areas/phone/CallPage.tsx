import type { PhoneCall } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api } from '../../api';
import { ChatThread } from '../../components/ChatThread';
import { Empty, QueryState } from '../../components/States';
import { usd, when } from '../../components/format';
import { POLL_MS } from '../../hooks';
import { callStatus } from './CallsPage';
import { PhoneTabs } from './PhoneTabs';
import { durationText } from './usePhone';

/** One call: who called whom, its duration and cost, and its transcript as a conversation. */
export function CallPage() {
  const { id = '' } = useParams();
  const call = useQuery({
    queryKey: ['phone', 'call', id],
    queryFn: () => api<PhoneCall>(`/v1/phone/calls/${id}`),
    // a call in progress grows its transcript; an ended one no longer changes
    refetchInterval: (q) => (q.state.data && q.state.data.endedAt ? false : POLL_MS),
  });
  return (
    <section>
      <h1>Call</h1>
      <PhoneTabs />
      <QueryState query={call} what="the call">
        {(c) => (
          <>
            <dl className="facts">
              <dt>Direction</dt>
              <dd>{c.direction}</dd>
              <dt>From</dt>
              <dd>{c.from}</dd>
              <dt>To</dt>
              <dd>{c.to}</dd>
              <dt>Status</dt>
              <dd data-testid="call-status">{callStatus(c.status)}</dd>
              <dt>Duration</dt>
              <dd data-testid="call-duration">{durationText(c.durationSec)}</dd>
              <dt>Cost</dt>
              <dd data-testid="call-cost">{usd(c.costUsd)}</dd>
              <dt>Started</dt>
              <dd>{when(c.startedAt)}</dd>
              <dt>Ended</dt>
              <dd>{when(c.endedAt)}</dd>
              {c.purpose ? (
                <>
                  <dt>Purpose</dt>
                  <dd>{c.purpose}</dd>
                </>
              ) : null}
            </dl>
            <h2>Transcript</h2>
            {c.transcript.length === 0 ? (
              <Empty>Nothing was said yet.</Empty>
            ) : (
              <ChatThread
                label="Transcript"
                userName={c.direction === 'inbound' ? `Caller ${c.from}` : `Callee ${c.to}`}
                agentName="Agent"
                entries={c.transcript.map((t, i) => ({ key: String(i), role: t.role, text: t.text, at: t.at }))}
              />
            )}
            <p>
              <Link to={`/phone/calls?numberId=${c.numberId}`}>Other calls of this number</Link>
            </p>
          </>
        )}
      </QueryState>
    </section>
  );
}
