import type { FinanceTotals } from '@svc/client';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

type Group = FinanceTotals & { label: string };

/** The chart's numbers: the exact texts become numbers only to be drawn; every text shown is the exact one. */
const points = (groups: Group[]) => groups.map((g) => ({ label: g.label, in: Number(g.in), out: Number(g.out) }));

function InOutChart({ title, groups, currency }: { title: string; groups: Group[]; currency: string }) {
  return (
    <figure className="chart" aria-label={`${title} in ${currency}`} data-testid={`chart-${title}`}>
      <ResponsiveContainer width="100%" height={Math.max(220, 28 * groups.length + 80)}>
        <BarChart data={points(groups)} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis type="number" />
          <YAxis type="category" dataKey="label" width={110} />
          <Tooltip />
          <Legend />
          <Bar dataKey="in" name={`In (${currency})`} fill="#15803d" isAnimationActive={false} />
          <Bar dataKey="out" name={`Out (${currency})`} fill="#b91c1c" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="small muted">
        {title}, in {currency}: {groups.map((g) => `${g.label} in ${g.in}, out ${g.out}`).join('; ')}
      </figcaption>
    </figure>
  );
}

/** One currency's totals and its charts by category and by month. */
export function CurrencySummary({
  totals,
  byCategory,
  byMonth,
}: {
  totals: FinanceTotals;
  byCategory: Group[];
  byMonth: Group[];
}) {
  const c = totals.currency;
  return (
    <section className="panel" aria-labelledby={`sum-${c}`}>
      <h2 id={`sum-${c}`}>{c}</h2>
      <p data-testid={`totals-${c}`}>
        In {totals.in} {c} · Out {totals.out} {c} · Net {totals.net} {c} · {totals.count} transactions
      </p>
      <h3>By category</h3>
      <InOutChart title="By category" groups={byCategory} currency={c} />
      <h3>By month</h3>
      {byMonth.length > 0 ? <InOutChart title="By month" groups={byMonth} currency={c} /> : <p className="muted">…</p>}
    </section>
  );
}
