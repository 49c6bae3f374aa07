import { lineDiff, withContext } from './lineDiff';
import './evals.css';

/**
 * A unified diff of two texts, line by line: removed lines marked `−` and said "removed" to screen readers,
 * added lines `+`, unchanged runs beyond three lines of a change folded.
 */
export function DiffView({ label, before, after }: { label: string; before: string; after: string }) {
  const lines = withContext(lineDiff(before, after));
  const changed = lines.some((l) => l.kind === 'added' || l.kind === 'removed');
  if (!changed) return <p className="small muted">{label}: no change.</p>;
  return (
    <figure className="diff-figure">
      <figcaption className="small">
        <strong>{label}</strong> (− the base version, + as proposed)
      </figcaption>
      <ol className="diff" aria-label={label}>
        {lines.map((l, i) =>
          l.kind === 'skipped' ? (
            <li key={i} className="diff-skipped">
              … {l.count} unchanged {l.count === 1 ? 'line' : 'lines'}
            </li>
          ) : (
            <li key={i} className={`diff-${l.kind}`}>
              <span aria-hidden="true" className="diff-sign">
                {l.kind === 'added' ? '+' : l.kind === 'removed' ? '−' : ' '}
              </span>
              {l.kind !== 'same' ? <span className="sr-only">{l.kind}: </span> : null}
              {l.text || ' '}
            </li>
          ),
        )}
      </ol>
    </figure>
  );
}
