import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, qs } from '../api';
import { DataTable } from '../components/DataTable';
import { Empty, ErrorBox, QueryState } from '../components/States';
import { usd } from '../components/format';
import { useAgentNames } from '../hooks';
import type { Balance, UsageReport } from '../types';

const day = (d: Date) => d.toISOString().slice(0, 10);
const daysAgo = (n: number) => day(new Date(Date.now() - n * 86_400_000));

export function UsagePage() {
  const [from, setFrom] = useState(daysAgo(29));
  const [to, setTo] = useState(day(new Date()));
  const name = useAgentNames();
  const balance = useQuery({ queryKey: ['balance'], queryFn: () => api<Balance>('/v1/usage/balance') });
  const rangeOk = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to;
  const usage = useQuery({
    queryKey: ['usage', from, to],
    queryFn: () => api<UsageReport>(`/v1/usage${qs({ from, to })}`),
    enabled: rangeOk,
    placeholderData: keepPreviousData,
  });
  return (
    <section>
      <h1>Usage</h1>
      <QueryState query={balance} what="the balance">
        {(b) => (
          <dl className="facts">
            <dt>Balance</dt>
            <dd data-testid="balance">{usd(b.balanceUsd)}</dd>
            <dt>Plan</dt>
            <dd>{b.plan}</dd>
            <dt>API rate limit</dt>
            <dd>{b.entitlements.apiRateLimitPerMin} requests a minute per key</dd>
          </dl>
        )}
      </QueryState>
      <div className="filters" role="group" aria-label="Date range">
        <div className="field">
          <label htmlFor="usage-from">From</label>
          <input id="usage-from" type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="usage-to">To</label>
          <input id="usage-to" type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} />
        </div>
      </div>
      {!rangeOk ? (
        <ErrorBox error={new Error('Choose a start date on or before the end date')} title="Date range" />
      ) : null}
      <QueryState query={usage} what="usage">
        {(u) => (
          <>
            <p>
              {u.runs} runs · {u.inputTokens} input tokens · {u.outputTokens} output tokens · {usd(u.costUsd)} in all
            </p>
            <h2>Cost and runs per day</h2>
            {u.byDay.length === 0 ? (
              <Empty>No finished runs in this range.</Empty>
            ) : (
              <figure className="chart" aria-label="Cost and runs per day">
                <ResponsiveContainer width="100%" height={280}>
                  <ComposedChart data={u.byDay} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
                    <CartesianGrid strokeDasharray="3 3" />
                    <XAxis dataKey="date" />
                    <YAxis yAxisId="runs" allowDecimals={false} />
                    <YAxis yAxisId="cost" orientation="right" width={72} tickFormatter={(v: number) => `$${v}`} />
                    <Tooltip />
                    <Legend />
                    <Bar yAxisId="runs" dataKey="runs" name="Runs" fill="#2563eb" isAnimationActive={false} />
                    <Line
                      yAxisId="cost"
                      dataKey="costUsd"
                      name="Cost (USD)"
                      stroke="#b45309"
                      strokeWidth={2}
                      isAnimationActive={false}
                    />
                  </ComposedChart>
                </ResponsiveContainer>
                <figcaption className="small muted">Bars: runs finished each day. Line: their cost in USD.</figcaption>
              </figure>
            )}
            <h2>By agent</h2>
            {u.byAgent.length === 0 ? (
              <Empty>No agent ran in this range.</Empty>
            ) : (
              <DataTable label="Usage by agent" columns={['Agent', 'Runs', 'Input tokens', 'Output tokens', 'Cost']}>
                {u.byAgent.map((a) => (
                  <tr key={a.agentId}>
                    <td>{name(a.agentId)}</td>
                    <td>{a.runs}</td>
                    <td>{a.inputTokens}</td>
                    <td>{a.outputTokens}</td>
                    <td>{usd(a.costUsd)}</td>
                  </tr>
                ))}
              </DataTable>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
