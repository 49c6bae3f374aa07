import type { CreatedPhoneNumber, PhoneNumber } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api';
import { IssueList } from '../../components/IssueList';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';
import { CallbackUrl } from './CallbackUrl';
import { PhoneAgents } from './PhoneAgents';
import { PhoneTabs } from './PhoneTabs';
import { NumberRow } from './NumberRow';
import { useNumbers, usePhoneAgents } from './usePhone';

/** The workspace's Twilio numbers and the agents that answer them. */
export function NumbersPage() {
  const { can } = useSession();
  const numbers = useNumbers();
  return (
    <section>
      <h1>Phone</h1>
      <PhoneTabs />
      <h2>Numbers</h2>
      {can('phone:manage') ? <ConnectNumber /> : null}
      <QueryState query={numbers} what="numbers">
        {(d) =>
          d.numbers.length === 0 ? (
            <Empty>No numbers connected yet.</Empty>
          ) : (
            <ul className="cards">
              {d.numbers.map((n: PhoneNumber) => (
                <NumberRow key={n.id} number={n} />
              ))}
            </ul>
          )
        }
      </QueryState>
      <PhoneAgents />
    </section>
  );
}

function ConnectNumber() {
  const client = useQueryClient();
  const agents = usePhoneAgents();
  const [e164, setE164] = useState('');
  const [agentId, setAgentId] = useState('');
  const [accountSid, setAccountSid] = useState('');
  const [authToken, setAuthToken] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api<CreatedPhoneNumber>('/v1/phone/numbers', {
        method: 'POST',
        json: {
          e164: e164.trim(),
          provider: 'twilio',
          agentId,
          credentials: { accountSid: accountSid.trim(), authToken },
        },
      }),
    onSuccess: () => {
      // the credentials are write-only: nothing of them stays in the page once sent
      setE164('');
      setAccountSid('');
      setAuthToken('');
      void client.invalidateQueries({ queryKey: ['phone'] });
    },
  });
  const list = agents.data?.agents ?? [];
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h3>Connect a Twilio number</h3>
      <div className="row">
        <div className="field">
          <label htmlFor="num-e164">Number (E.164)</label>
          <input
            id="num-e164"
            type="tel"
            required
            placeholder="+14155550100"
            value={e164}
            onChange={(e) => setE164(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="num-agent">Phone agent that answers</label>
          <select id="num-agent" required value={agentId} onChange={(e) => setAgentId(e.target.value)}>
            <option value="">{agents.isPending ? 'Loading agents…' : 'Choose a phone agent'}</option>
            {list.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset>
        <legend>Twilio credentials (stored encrypted, never shown again)</legend>
        <div className="row">
          <div className="field">
            <label htmlFor="num-sid">Account SID</label>
            <input
              id="num-sid"
              className="code"
              required
              autoComplete="off"
              value={accountSid}
              onChange={(e) => setAccountSid(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="num-token">Auth Token</label>
            <input
              id="num-token"
              type="password"
              required
              autoComplete="new-password"
              value={authToken}
              onChange={(e) => setAuthToken(e.target.value)}
            />
          </div>
        </div>
      </fieldset>
      {agents.isSuccess && list.length === 0 ? <p className="notice">Create a phone agent below first.</p> : null}
      <ErrorBox error={create.error} title="Could not connect the number" />
      <IssueList error={create.error} />
      <button className="primary" type="submit" disabled={create.isPending || !agentId}>
        Connect number
      </button>
      {create.data ? <CallbackUrl url={create.data.callbackUrl} title={`${create.data.e164} is connected.`} /> : null}
      {create.data ? (
        <p className="small">
          Connected {when(create.data.createdAt)}. Its calls appear under <Link to="/phone/calls">Calls</Link>.
        </p>
      ) : null}
    </form>
  );
}
