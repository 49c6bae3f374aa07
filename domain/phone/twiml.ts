const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/**
 * The provider's XML answer (docs/api/phone.md#callbacks): say `text` in `voice`, then, unless the call is
 * over, gather the caller's next words as speech and post them to `action`.
 */
export function twiml(opts: { say?: string; voice: string; gatherAction?: string }): string {
  const parts: string[] = [];
  if (opts.say) parts.push(`<Say voice="${escapeXml(opts.voice)}">${escapeXml(opts.say)}</Say>`);
  if (opts.gatherAction) {
    parts.push(`<Gather input="speech" action="${escapeXml(opts.gatherAction)}" method="POST" speechTimeout="auto"/>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${parts.join('')}</Response>`;
}

/** The answer that ends a call's exchange: nothing more to say or gather. */
export const EMPTY_TWIML = twiml({ voice: '' });
