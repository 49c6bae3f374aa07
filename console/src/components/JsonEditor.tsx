import { useId } from 'react';

/** Parses `text` as JSON: the value, or the parser's message. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

/** A labelled JSON text area that says, as one types, whether the text is valid JSON. */
export function JsonEditor({
  label,
  value,
  onChange,
  rows = 8,
  requireObject = false,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  rows?: number;
  requireObject?: boolean;
}) {
  const id = useId();
  const parsed = parseJson(value);
  const problem = !parsed.ok
    ? `Invalid JSON: ${parsed.message}`
    : requireObject && (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value))
      ? 'Must be a JSON object'
      : null;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="code"
        rows={rows}
        value={value}
        spellCheck={false}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-status`}
        onChange={(e) => onChange(e.target.value)}
      />
      <div id={`${id}-status`} className={problem ? 'invalid small' : 'valid small'} aria-live="polite">
        {problem ?? 'Valid JSON'}
      </div>
    </div>
  );
}

export const jsonProblem = (text: string, requireObject = false): string | null => {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed.message;
  if (requireObject && (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)))
    return 'Must be a JSON object';
  return null;
};
