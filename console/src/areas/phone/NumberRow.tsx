import type { PhoneNumber } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api';
import { IssueList } from '../../components/IssueList';
import { ErrorBox } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';
import { CallbackUrl } from './CallbackUrl';
import { usePhoneAgents } from './usePhone';

type Panel = 'none' | 'agent' | 'credentials' | 'rotate' | 'remove';

/** One number: its agent, and for phone:manage the agent, credentials, callback URL and removal. */
export function NumberRow({ number }: { number: PhoneNumber }) {
  const { can } = useSession();
  const client = useQueryClient();
  const agents = usePhoneAgents();
  const [panel, setPanel] = useState<Panel>('none');
  const [agentId, setAgentId] = useState(number.agentId);
  const [accountSid, setAccountSid] = useState('');
  const [authToken, setAuthToken] = useState('');
  const done = () => {
    setPanel('none');
    setAccountSid('');
    setAuthToken('');
    void client.invalidateQueries({ queryKey: ['phone'] });
  };
  const update = useMutation({
    mutationFn: (json: Record<string, unknown>) =>
      api<PhoneNumber>(`/v1/phone/numbers/${number.id}`, { method: 'PATCH', json }),
    onSuccess: done,
  });
  const rotate = useMutation({
    mutationFn: () => api<{ callbackUrl: string }>(`/v1/phone/numbers/${number.id}/rotate-secret`, { method: 'POST' }),
    onSuccess: () => setPanel('none'),
  });
  const remove = useMutation({
    mutationFn: () => api(`/v1/phone/numbers/${number.id}`, { method: 'DELETE' }),
    onSuccess: done,
  });
  const agentName = agents.data?.agents.find((a) => a.id === number.agentId)?.name ?? number.agentId.slice(0, 8);
  const toggle = (p: Panel) => setPanel(panel === p ? 'none' : p);
  return (
    <li className="card" data-testid="number">
      <h3 className="card-title">{number.e164}</h3>
      <p className="small">
        Answered by <Link to={`/agents/${number.agentId}`}>{agentName}</Link> · connected {when(number.createdAt)} ·{' '}
        <Link to={`/phone/calls?numberId=${number.id}`}>Calls</Link>
      </p>
      {can('phone:manage') ? (
        <div className="actions">
          <button type="button" aria-expanded={panel === 'agent'} onClick={() => toggle('agent')}>
            Change agent
          </button>
          <button type="button" aria-expanded={panel === 'credentials'} onClick={() => toggle('credentials')}>
            Replace credentials
          </button>
          <button type="button" aria-expanded={panel === 'rotate'} onClick={() => toggle('rotate')}>
            New callback URL
          </button>
          <button className="danger" type="button" aria-expanded={panel === 'remove'} onClick={() => toggle('remove')}>
            Remove
          </button>
        </div>
      ) : null}
      {panel === 'agent' ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ agentId });
          }}
        >
          <div className="field">
            <label htmlFor={`agent-${number.id}`}>Agent for {number.e164}</label>
            <select id={`agent-${number.id}`} value={agentId} onChange={(e) => setAgentId(e.target.value)}>
              {(agents.data?.agents ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" disabled={update.isPending}>
            Save agent
          </button>
        </form>
      ) : null}
      {panel === 'credentials' ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ credentials: { accountSid: accountSid.trim(), authToken } });
          }}
        >
          <div className="field">
            <label htmlFor={`sid-${number.id}`}>New Account SID</label>
            <input
              id={`sid-${number.id}`}
              className="code"
              required
              autoComplete="off"
              value={accountSid}
              onChange={(e) => setAccountSid(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`token-${number.id}`}>New Auth Token</label>
            <input
              id={`token-${number.id}`}
              type="password"
              required
              autoComplete="new-password"
              value={authToken}
              onChange={(e) => setAuthToken(e.target.value)}
            />
          </div>
          <button type="submit" disabled={update.isPending}>
            Save credentials
          </button>
        </form>
      ) : null}
      {panel === 'rotate' ? (
        <div className="confirm">
          <p>The current callback URL stops working at once; paste the new one into Twilio.</p>
          <button className="danger" type="button" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
            Yes, make a new callback URL
          </button>
        </div>
      ) : null}
      {panel === 'remove' ? (
        <div className="confirm">
          <p>Remove {number.e164}? Its callbacks stop at once; its calls stay readable.</p>
          <button className="danger" type="button" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Yes, remove {number.e164}
          </button>
        </div>
      ) : null}
      {rotate.data ? <CallbackUrl url={rotate.data.callbackUrl} title="A new callback URL." /> : null}
      {update.isSuccess ? (
        <p className="notice" role="status">
          Saved.
        </p>
      ) : null}
      <ErrorBox error={update.error ?? rotate.error ?? remove.error} title="Could not change the number" />
      <IssueList error={update.error} />
    </li>
  );
}
