import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, qs } from '../../api';
import { ErrorBox } from '../../components/States';
import { StatusBadge } from '../../components/StatusBadge';
import { useSession } from '../../session';
import { TERMINAL, type Run } from '../../types';
import { downloadFile } from '../../upload';
import { downloadFrom } from './download';
import { FinanceTabs } from './FinanceTabs';

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The transactions as CSV or XLSX, and the finance report runs whose PDF or XLSX lands in the files. */
export function ReportsPage() {
  const { can } = useSession();
  const [from, setFrom] = useState(`${new Date().getUTCFullYear()}-01-01`);
  const [to, setTo] = useState(day(new Date()));
  const exportAs = useMutation({
    mutationFn: (format: 'csv' | 'xlsx') =>
      downloadFrom(`/v1/finance/export${qs({ from, to, format })}`, `transactions-${from}-${to}.${format}`),
  });
  return (
    <section>
      <h1>Export and reports</h1>
      <FinanceTabs />
      <div className="filters" role="group" aria-label="Date range">
        <div className="field">
          <label htmlFor="rep-from">From</label>
          <input id="rep-from" type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="rep-to">To</label>
          <input id="rep-to" type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} />
        </div>
      </div>
      <div className="panel">
        <h2>Export the transactions</h2>
        <p className="small">
          Oldest first: id, date, description, amount, currency, account, category, counterparty, note, reconciled.
        </p>
        <div className="actions">
          <button type="button" disabled={exportAs.isPending} onClick={() => exportAs.mutate('csv')}>
            Download CSV
          </button>
          <button type="button" disabled={exportAs.isPending} onClick={() => exportAs.mutate('xlsx')}>
            Download XLSX
          </button>
        </div>
        <ErrorBox error={exportAs.error} title="Could not export" />
      </div>
      {can('finance:write') ? <ReportRun from={from} to={to} /> : null}
    </section>
  );
}

interface ReportOutput {
  fileId: string;
  filename: string;
}

function ReportRun({ from, to }: { from: string; to: string }) {
  const [kind, setKind] = useState<'monthly' | 'cashflow'>('monthly');
  const start = useMutation({
    mutationFn: () => api<Run>('/v1/finance/reports', { method: 'POST', json: { from, to, kind } }),
  });
  const runId = start.data?.id;
  const run = useQuery({
    queryKey: ['runs', runId],
    queryFn: () => api<Run>(`/v1/runs/${runId}`),
    enabled: Boolean(runId),
    refetchInterval: (q) => (q.state.data && TERMINAL.includes(q.state.data.status) ? false : 2000),
  });
  const download = useMutation({
    mutationFn: (o: ReportOutput) => downloadFile({ id: o.fileId, filename: o.filename }),
  });
  const output = run.data?.status === 'succeeded' ? (run.data.output as ReportOutput) : null;
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        start.mutate();
      }}
    >
      <h2>Make a report</h2>
      <div className="field">
        <label htmlFor="rep-kind">Report</label>
        <select id="rep-kind" value={kind} onChange={(e) => setKind(e.target.value as 'monthly' | 'cashflow')}>
          <option value="monthly">Monthly by category (PDF)</option>
          <option value="cashflow">Cash flow by month (XLSX)</option>
        </select>
      </div>
      <ErrorBox error={start.error} title="Could not start the report" />
      <button className="primary" type="submit" disabled={start.isPending || from > to}>
        Make the report
      </button>
      {runId ? (
        <p role="status">
          Report run <Link to={`/runs/${runId}`}>{runId.slice(0, 8)}</Link>{' '}
          {run.data ? <StatusBadge status={run.data.status} /> : null}
        </p>
      ) : null}
      <ErrorBox error={run.error} title="Could not follow the report" />
      {output ? (
        <button type="button" onClick={() => download.mutate(output)} disabled={download.isPending}>
          Download {output.filename}
        </button>
      ) : null}
      <ErrorBox error={download.error} title="Could not download the report" />
    </form>
  );
}
