import { ApiError } from '../api';

/** The per-field problems of a 400 `validation_error` (`details.issues`), beside the error's message. */
export function IssueList({ error }: { error: unknown }) {
  if (!(error instanceof ApiError) || error.code !== 'validation_error') return null;
  const issues = (error.details?.issues ?? []) as Array<{ path?: string | (string | number)[]; message?: string }>;
  if (issues.length === 0) return null;
  return (
    <ul className="error small" aria-label="Problems">
      {issues.map((i, n) => (
        <li key={n}>
          <code>{Array.isArray(i.path) ? i.path.join('.') : (i.path ?? 'body')}</code>: {i.message}
        </li>
      ))}
    </ul>
  );
}
