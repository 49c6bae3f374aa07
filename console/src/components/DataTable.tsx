import type { ReactNode } from 'react';

/** A list shown as a table: a labelled region that scrolls sideways on a narrow screen, one header per column. */
export function DataTable({ label, columns, children }: { label: string; columns: ReactNode[]; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
