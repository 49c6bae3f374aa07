import { useState, type ReactNode } from 'react';

/** Every destructive action asks once more in place ("Yes, …" or "Keep it") before it calls the service. */
export function ConfirmDelete({
  label = 'Delete',
  confirmLabel,
  question,
  pending,
  onConfirm,
}: {
  /** the first button's text */
  label?: ReactNode;
  /** the text of the button that does it */
  confirmLabel: ReactNode;
  /** when given, asked above the two buttons in a `confirm` box */
  question?: ReactNode;
  pending: boolean;
  onConfirm: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button className="danger" type="button" onClick={() => setConfirming(true)}>
        {label}
      </button>
    );
  }
  const yes = (
    <button className="danger" type="button" disabled={pending} onClick={onConfirm}>
      {confirmLabel}
    </button>
  );
  const keep = (
    <button type="button" onClick={() => setConfirming(false)}>
      Keep it
    </button>
  );
  return question ? (
    <div className="confirm">
      <p>{question}</p>
      {yes} {keep}
    </div>
  ) : (
    <>
      {yes}
      {keep}
    </>
  );
}
