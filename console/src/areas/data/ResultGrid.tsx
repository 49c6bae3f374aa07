/** A cell as text: JSON values as the service sent them (decimals and 64-bit integers are already text). */
const cell = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** Rows under their columns, in a region that scrolls sideways on its own (never the page). */
export function ResultGrid({
  label,
  columns,
  rows,
}: {
  label: string;
  columns: string[];
  rows: Array<Record<string, unknown>>;
}) {
  if (rows.length === 0) return <p className="empty">No rows.</p>;
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table data-testid="result-grid">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c} className={r[c] === null ? 'muted' : undefined}>
                  {r[c] === null ? 'null' : cell(r[c])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
