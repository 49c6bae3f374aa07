import type { AppUsage as Usage } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, qs } from '../../api';
import { QueryState } from '../../components/States';
import { usd } from '../../components/format';

const day = (d: Date) => d.toISOString().slice(0, 10);

/** Runs made through the app's public face between two UTC days, their cost and what its price list bills. */
export function AppUsage({ appId }: { appId: string }) {
  const [from, setFrom] = useState(() => day(new Date(Date.now() - 29 * 86_400_000)));
  const [to, setTo] = useState(() => day(new Date()));
  const usage = useQuery({
    queryKey: ['apps', appId, 'usage', from, to],
    queryFn: () => api<Usage>(`/v1/apps/${appId}/usage${qs({ from, to })}`),
    enabled: Boolean(from && to),
  });
  return (
    <div className="panel">
      <h2>Usage</h2>
      <div className="row">
        <div className="field">
          <label htmlFor="usage-from">From (UTC day)</label>
          <input id="usage-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="usage-to">To (UTC day)</label>
          <input id="usage-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </div>
      </div>
      <QueryState query={usage} what="usage">
        {(u) => (
          <dl className="facts">
            <dt>Runs</dt>
            <dd data-testid="app-usage-runs">{u.runs}</dd>
            <dt>Tokens</dt>
            <dd>
              {u.inputTokens} in, {u.outputTokens} out
            </dd>
            <dt>Cost to the workspace</dt>
            <dd>{usd(u.costUsd)}</dd>
            <dt>Billed by its price list</dt>
            <dd>{u.billedUsd === null ? 'No price list' : usd(u.billedUsd)}</dd>
          </dl>
        )}
      </QueryState>
    </div>
  );
}
