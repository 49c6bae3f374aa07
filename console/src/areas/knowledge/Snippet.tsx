import { snippetParts } from './snippetParts';

/** A snippet with its matches highlighted, rendered as React text (never as HTML). */
export function Snippet({ snippet }: { snippet: string }) {
  return (
    <span className="snippet">
      {snippetParts(snippet).map((p, i) => (p.marked ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </span>
  );
}
