const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/**
 * The TwiML answer to a voice callback (docs/api/phone.md#callbacks): say `say` in `voice`, then either
 * gather the caller's next words as speech and post them to `gatherAction`, or hang up. The `<Gather>`
 * posts to its action even when the caller said nothing (`actionOnEmptyResult`), so silence gets a prompt
 * instead of Twilio ending the call, and `speechTimeout="auto"` lets Twilio decide when the caller is done.
 */
export function twiml(opts: { say?: string; voice: string; gatherAction?: string; hangup?: boolean }): string {
  const parts: string[] = [];
  if (opts.say) parts.push(`<Say voice="${escapeXml(opts.voice)}">${escapeXml(opts.say)}</Say>`);
  if (opts.hangup) {
    parts.push('<Hangup/>');
  } else if (opts.gatherAction) {
    parts.push(
      `<Gather input="speech" action="${escapeXml(opts.gatherAction)}" method="POST" speechTimeout="auto" actionOnEmptyResult="true"/>`,
    );
  }
  const body = parts.length ? `<Response>${parts.join('')}</Response>` : '<Response/>';
  return `<?xml version="1.0" encoding="UTF-8"?>${body}`;
}

/** The answer that ends a call's exchange: nothing more to say or gather. */
export const EMPTY_TWIML = twiml({ voice: '' });
