import './ChatThread.css';

/** One message of a conversation as the console shows it. */
export interface ChatEntry {
  key: string;
  role: 'user' | 'assistant';
  text: string;
  at?: string | null;
  /** What follows the message (its delivery status, a redeliver button, a link to its run). */
  extra?: React.ReactNode;
}

const timeOf = (iso?: string | null) => (iso ? new Date(iso).toLocaleTimeString() : '');

/**
 * A conversation (a call's transcript, a WhatsApp thread, a tutor session) as chat bubbles: the other party on
 * the left, the agent on the right, each message named for screen readers.
 */
export function ChatThread({
  entries,
  label,
  userName,
  agentName,
}: {
  entries: ChatEntry[];
  label: string;
  userName: string;
  agentName: string;
}) {
  return (
    <ol className="chat" aria-label={label}>
      {entries.map((m) => (
        <li key={m.key} className={`chat-msg chat-${m.role}`}>
          <div className="chat-who small">
            <strong>{m.role === 'user' ? userName : agentName}</strong>
            {m.at ? <span className="muted"> · {timeOf(m.at)}</span> : null}
          </div>
          <div className="chat-text">{m.text}</div>
          {m.extra ? <div className="chat-extra small">{m.extra}</div> : null}
        </li>
      ))}
    </ol>
  );
}
