/**
 * The text of a reply from a turn's run output (docs/api/conversations.md#replies): a string output
 * itself; else its `reply`, `text` or `message` field when a string; the built-in echo model's
 * `{ echo: input }` answers with the message it was given; anything else as JSON.
 */
export function replyText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output)) {
    for (const field of ['reply', 'text', 'message']) {
      if (typeof output[field] === 'string') return output[field];
    }
    if (isRecord(output.echo) && typeof output.echo.message === 'string') return output.echo.message;
  }
  return JSON.stringify(output ?? null);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
