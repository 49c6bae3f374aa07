import { z } from 'zod';

// Lengths as JSON Schema's minLength/maxLength count them: in characters (code points), as PostgreSQL's
// varchar(n) does too, not in JavaScript's UTF-16 units, so "😀" is one character and the document says
// exactly what is accepted.
const length = (s: string) => [...s].length;

/**
 * A string of `min` to `max` characters, the limits checked on the string as sent.
 * `opts.message` replaces the default issue message.
 */
export function text(min: number, max: number, opts: { message?: string } = {}) {
  const message = opts.message ?? `Must be ${min} to ${max} characters`;
  return z
    .string()
    .check(z.refine((s) => length(s) >= min && length(s) <= max, message))
    .meta(min > 0 ? { minLength: min, maxLength: max } : { maxLength: max });
}

/**
 * A URL a caller gives (a webhook's, an HTTP step's): up to `max` characters, documented as `format: uri`. Which
 * URLs are taken (http or https, to a public address) the service checks itself: 400 `webhook.url_not_public`
 * for anything else, a string that is no URL at all included (docs/api/webhooks.md).
 */
export function urlText(max: number) {
  return text(1, max).meta({ minLength: 1, maxLength: max, format: 'uri' });
}

/** A URL the service hands out (built from `SVC_PUBLIC_URL`, or one a caller registered). */
export const urlOut = z.string().meta({ format: 'uri' });

/** A link the service hands out that may be relative to its own address (an app's page, `/apps/<slug>`). */
export const linkOut = z.string().meta({ format: 'uri-reference' });

// JavaScript's String.prototype.trim removes exactly these (WhiteSpace and LineTerminator); the class is
// spelled out because a pattern's `\s` means other things to other regex engines.
const TRIMMED = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
const NOT_BLANK = new RegExp(`[^${TRIMMED}]`);

/**
 * A name: 1 to `max` characters as sent, at least one of them not white space; the value the handler
 * gets is trimmed.
 */
export function trimmedText(max: number) {
  return z
    .string()
    .check(
      z.refine((s) => length(s) <= max, `Must be at most ${max} characters`),
      z.refine((s) => NOT_BLANK.test(s), 'Must not be blank'),
    )
    .meta({ minLength: 1, maxLength: max, pattern: NOT_BLANK.source })
    .transform((s) => s.trim());
}
