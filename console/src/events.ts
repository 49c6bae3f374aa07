import { useEffect, useState } from 'react';
import { baseHeaders, readResponse } from './api';

export interface StreamEvent {
  id: string;
  event: string;
  data: unknown;
}

/**
 * Follows a run's server-sent events (docs/api/runs.md#events) over fetch, so the request carries
 * `X-Workspace-Id` (EventSource cannot send headers); resumes with `Last-Event-ID` when the connection drops,
 * and stops at the end of the stream (after the terminal status).
 */
export function useRunEvents(runId: string, onEvent: (e: StreamEvent) => void) {
  const [events, setEvents] = useState<StreamEvent[]>([]);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const abort = new AbortController();
    let lastId: string | null = null;
    setEvents([]);
    const run = async () => {
      for (let attempt = 0; attempt < 20 && !abort.signal.aborted; attempt++) {
        try {
          const headers: Record<string, string> = { ...baseHeaders(), Accept: 'text/event-stream' };
          if (lastId) headers['Last-Event-ID'] = lastId;
          const res = await fetch(`/v1/runs/${runId}/events`, {
            headers,
            signal: abort.signal,
            credentials: 'same-origin',
          });
          if (!res.ok || !res.body) {
            await readResponse(res);
            return;
          }
          setError(null);
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return; // the service ends the stream after the terminal status
            buffer += value;
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const e = parseBlock(block);
              if (!e) continue;
              lastId = e.id || lastId;
              setEvents((prev) => [...prev.slice(-199), e]);
              onEvent(e);
            }
          }
        } catch (err) {
          if (abort.signal.aborted) return;
          setError(err);
          await new Promise((r) => setTimeout(r, 2000));
        }
      }
    };
    void run();
    return () => abort.abort();
    // onEvent is read at call time; the stream follows the run id only
  }, [runId]);
  return { events, error };
}

function parseBlock(block: string): StreamEvent | null {
  let id = '';
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const i = line.indexOf(':');
    const field = i < 0 ? line : line.slice(0, i);
    const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  const text = data.join('\n');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: shown as sent
  }
  return { id, event, data: parsed };
}
