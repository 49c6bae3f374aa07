import type { PhoneCall } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, qs } from '../../api';
import { Empty, QueryState } from '../../components/States';
import { usd, when } from '../../components/format';
import { POLL_MS } from '../../hooks';
import { PhoneTabs } from './PhoneTabs';
import { durationText, useNumbers } from './usePhone';

const STATUS: Record<PhoneCall['status'], string> = {
  ringing: 'Ringing',
  in_progress: 'In progress',
  completed: 'Completed',
  failed: 'Failed',
};
export const callStatus = (s: PhoneCall['status']) => STATUS[s] ?? s;

/** The workspace's calls, newest first, optionally of one number; polled while the page is open. */
export function CallsPage() {
  const [params, setParams] = useSearchParams();
  const numberId = params.get('numberId') ?? '';
  const numbers = useNumbers();
  const calls = useQuery({
    queryKey: ['phone', 'calls', numberId],
    queryFn: () => api<{ calls: PhoneCall[] }>(`/v1/phone/calls${qs({ numberId, limit: 50 })}`),
    refetchInterval: POLL_MS,
  });
  return (
    <section>
      <h1>Calls</h1>
      <PhoneTabs />
      <div className="field">
        <label htmlFor="calls-number">Number</label>
        <select
          id="calls-number"
          value={numberId}
          onChange={(e) => setParams(e.target.value ? { numberId: e.target.value } : {})}
        >
          <option value="">Every number</option>
          {(numbers.data?.numbers ?? []).map((n) => (
            <option key={n.id} value={n.id}>
              {n.e164}
            </option>
          ))}
        </select>
      </div>
      <QueryState query={calls} what="calls">
        {(d) =>
          d.calls.length === 0 ? (
            <Empty>No calls yet.</Empty>
          ) : (
            <div className="table-wrap" role="region" aria-label="Calls" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Started</th>
                    <th scope="col">Direction</th>
                    <th scope="col">From</th>
                    <th scope="col">To</th>
                    <th scope="col">Status</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Cost</th>
                  </tr>
                </thead>
                <tbody>
                  {d.calls.map((c) => (
                    <tr key={c.id} data-testid="call">
                      <td>
                        <Link to={`/phone/calls/${c.id}`}>{when(c.startedAt ?? c.createdAt)}</Link>
                      </td>
                      <td>{c.direction}</td>
                      <td>{c.from}</td>
                      <td>{c.to}</td>
                      <td>{callStatus(c.status)}</td>
                      <td>{durationText(c.durationSec)}</td>
                      <td>{usd(c.costUsd)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
    </section>
  );
}
