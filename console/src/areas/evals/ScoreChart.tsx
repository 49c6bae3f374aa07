import type { EvalRun } from '@svc/client';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Empty } from '../../components/States';
import { when } from '../../components/format';

/** The score of each finished eval run, oldest first (recharts: loaded lazily with this file). */
export function ScoreChart({ runs }: { runs: EvalRun[] }) {
  const points = runs
    .filter((r) => r.status === 'succeeded' && r.score !== null)
    .reverse()
    .map((r, i) => ({
      n: i + 1,
      label: `#${i + 1} (v${r.agentVersion})`,
      score: Math.round(r.score! * 1000) / 10,
      at: when(r.createdAt),
    }));
  if (points.length === 0) return <Empty>No finished eval run to chart yet.</Empty>;
  return (
    <figure className="chart" aria-label="Scores over eval runs">
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" />
          <YAxis domain={[0, 100]} unit=" %" width={64} />
          <Tooltip />
          <Line dataKey="score" name="Score" stroke="#1d4ed8" strokeWidth={2} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
      <figcaption className="small muted">
        Score of each finished eval run, oldest first (the label names the agent version it ran).
      </figcaption>
    </figure>
  );
}
