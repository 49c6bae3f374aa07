import { useId, useState } from 'react';

/**
 * A value the service shows this once (a callback URL carrying its token): read-only, with a copy button,
 * and the reason it cannot be shown again.
 */
export function ShownOnce({ label, value, children }: { label: string; value: string; children?: React.ReactNode }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret" role="status">
      {children}
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input id={id} className="code" readOnly value={value} onFocus={(e) => e.target.select()} />
        <CopyButton value={value} label={label} onCopied={setCopied} />
      </div>
      {copied ? <p className="small">Copied to the clipboard.</p> : null}
    </div>
  );
}

/** Copies `value` to the clipboard; says so on the button. */
export function CopyButton({
  value,
  label,
  onCopied,
}: {
  value: string;
  label: string;
  onCopied?: (ok: boolean) => void;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={`Copy ${label}`}
      onClick={() =>
        void navigator.clipboard?.writeText(value).then(
          () => {
            setCopied(true);
            onCopied?.(true);
          },
          () => onCopied?.(false),
        )
      }
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
