/**
 * A small Server-Sent Events parser over a fetch body stream (the WHATWG "event stream interpretation",
 * minus reconnection, which the caller handles).
 */

/** One dispatched event. `event` is `message` when the stream named none. */
export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Yields the events of a `text/event-stream` body. Lines may end in CRLF, LF or CR, even split across
 * chunks; comment lines (`:`) are skipped; multiple `data:` lines are joined with `\n`; a trailing
 * event without its blank line is dropped, as the standard says. Cancels the stream if the consumer stops early.
 */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  let first = true;
  let id: string | undefined;
  let event = '';
  let data: string[] = [];
  try {
    while (!done) {
      const chunk = await reader.read();
      done = chunk.done;
      buffer += done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
      }
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        if (!match) break;
        // a CR at the very end may be the first half of a CRLF that the next chunk completes
        if (match[0] === '\r' && match.index === buffer.length - 1 && !done) break;
        const line = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        if (line === '') {
          if (data.length > 0) yield { id, event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
        else if (field === 'id' && !value.includes('\0')) id = value;
      }
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
