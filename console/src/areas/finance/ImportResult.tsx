import type { FinanceImport } from '@svc/client';
import { Link } from 'react-router';

/** What an import did: rows seen, new, duplicates, and each line it could not read. */
export function ImportResult({ result }: { result: FinanceImport }) {
  return (
    <div className="panel" role="status" aria-live="polite">
      <h2>Import result</h2>
      <p data-testid="import-summary">
        {result.rows} rows read · {result.imported} imported · {result.duplicates} duplicates · {result.errors.length}{' '}
        errors
      </p>
      {result.duplicates > 0 ? (
        <p className="small muted">Duplicates are rows this workspace already had: they were skipped.</p>
      ) : null}
      {result.errors.length > 0 ? (
        <div className="table-wrap" role="region" aria-label="Lines not imported" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {result.errors.map((e) => (
                <tr key={`${e.line}-${e.message}`}>
                  <td>{e.line}</td>
                  <td className="wrap">{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <p>
        <Link to="/finance/transactions">See the transactions</Link>
      </p>
    </div>
  );
}
