import type { WhatsAppAccount, WhatsAppConversation } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, qs } from '../../api';
import { Empty, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { POLL_MS, useAgentNames } from '../../hooks';
import { useSession } from '../../session';
import { AccountRow } from './AccountRow';
import { ConnectAccount } from './ConnectAccount';

/** Accounts (numbers of the Cloud API) and the conversations their contacts hold with the agents. */
export function WhatsAppPage() {
  const { can } = useSession();
  const accounts = useQuery({
    queryKey: ['whatsapp', 'accounts'],
    queryFn: () => api<{ accounts: WhatsAppAccount[] }>('/v1/whatsapp/accounts?limit=100'),
  });
  return (
    <section>
      <h1>WhatsApp</h1>
      <h2>Accounts</h2>
      {can('whatsapp:manage') ? <ConnectAccount /> : null}
      <QueryState query={accounts} what="accounts">
        {(d) =>
          d.accounts.length === 0 ? (
            <Empty>No WhatsApp number connected yet.</Empty>
          ) : (
            <ul className="cards">
              {d.accounts.map((a) => (
                <AccountRow key={a.id} account={a} />
              ))}
            </ul>
          )
        }
      </QueryState>
      <Conversations accounts={accounts.data?.accounts ?? []} />
    </section>
  );
}

function Conversations({ accounts }: { accounts: WhatsAppAccount[] }) {
  const [params, setParams] = useSearchParams();
  const accountId = params.get('accountId') ?? '';
  const agentName = useAgentNames();
  const list = useQuery({
    queryKey: ['whatsapp', 'conversations', accountId],
    queryFn: () =>
      api<{ conversations: WhatsAppConversation[] }>(`/v1/whatsapp/conversations${qs({ accountId, limit: 50 })}`),
    refetchInterval: POLL_MS,
  });
  const numberOf = (id: string) => accounts.find((a) => a.id === id)?.phoneNumberId ?? id.slice(0, 8);
  return (
    <>
      <h2>Conversations</h2>
      <div className="field">
        <label htmlFor="wa-filter">Account</label>
        <select
          id="wa-filter"
          value={accountId}
          onChange={(e) => setParams(e.target.value ? { accountId: e.target.value } : {})}
        >
          <option value="">Every account</option>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.phoneNumberId}
            </option>
          ))}
        </select>
      </div>
      <QueryState query={list} what="conversations">
        {(d) =>
          d.conversations.length === 0 ? (
            <Empty>No conversations yet: they start when a contact writes to a connected number.</Empty>
          ) : (
            <ul className="cards">
              {d.conversations.map((c) => (
                <li key={c.id} className="card" data-testid="conversation">
                  <h3 className="card-title">
                    <Link to={`/whatsapp/conversations/${c.id}`}>Contact +{c.waId}</Link>{' '}
                    <span className="badge">{c.status}</span>
                  </h3>
                  <p className="small">
                    Number {numberOf(c.accountId)} · agent {agentName(c.agentId)} · last message {when(c.updatedAt)}
                    {c.endedReason ? ` · ended (${c.endedReason})` : ''}
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </>
  );
}
