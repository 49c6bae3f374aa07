/**
 * Real OFX files are rarely what the standard says: 1.x is SGML (leaf elements have no end tag), 2.x should
 * be XML, and banks send everything between: an OFX 2.x XML header over an SGML body, empty elements
 * written `<MEMO>` with nothing after them, end tags the file never opened, lower-case tags, stray `&`. This turns any of them into well-formed XML for one maintained XML parser
 * (fast-xml-parser), the way tolerant SGML readers do (docs/api/finance.md#bank-files):
 *
 * - an element followed by text is a leaf: its end tag is added unless the file has it;
 * - an element followed by another tag is an aggregate when its own end tag comes before its parent's
 *   end tag, and an empty leaf otherwise;
 * - an end tag closes every element opened since its element, and an end tag of an element that is not
 *   open is dropped.
 *
 * The work is linear in the file's size (plus a binary search per element), whatever the file holds.
 */

/** Deeper nesting than any OFX statement has (about 8 levels): a file beyond it is not OFX. */
const MAX_DEPTH = 64;

export class NotOfxError extends Error {}

/** The child element that {@link ofxToXml} adds to each transaction: a name no OFX tag can have. */
export const LINE_ELEMENT = 'svc-line';

/**
 * The document from its `<OFX>` on, as well-formed XML. Each `<STMTTRN>` gets a first child
 * `<svc-line>` holding the 1-based line of the original text it starts on, so that errors can name it.
 * @throws NotOfxError with no `<OFX>` or absurd nesting
 */
export function ofxToXml(text: string): string {
  const start = indexOfOfx(text);
  if (start < 0) throw new NotOfxError('no <OFX> element');
  const tokens = splitTags(text.slice(start));
  const closes = closePositions(tokens);
  const out: string[] = [];
  const stack: string[] = [];
  let line = 1 + countLines(text, 0, start);
  let counted = 0; // tokens whose line breaks `line` includes
  for (let i = 0; i < tokens.length; i++) {
    for (; counted < i; counted++) line += countLines(tokens[counted], 0, tokens[counted].length);
    const token = tokens[i];
    if (i % 2 === 0) continue; // text outside a leaf (indentation) is not content
    const tag = parseTag(token);
    if (!tag) continue; // processing instructions, comments, declarations
    if (tag.close) {
      const at = stack.lastIndexOf(tag.name);
      if (at < 0) continue;
      while (stack.length > at) out.push(`</${stack.pop()}>`);
      if (stack.length === 0) break; // the root is closed: what follows is not part of the document
      continue;
    }
    const text = tokens[i + 1] ?? '';
    if (text.trim() !== '' && stack.length > 0) {
      out.push(`<${tag.name}>`, escapeText(text.trim()), `</${tag.name}>`);
      i++;
      const next = tokens[i + 1];
      if (next !== undefined && parseTag(next)?.close && parseTag(next)?.name === tag.name) i++;
      continue;
    }
    const parent = stack.at(-1);
    const ownClose = nextAfter(closes.get(tag.name), i);
    const parentClose = parent === undefined ? Infinity : nextAfter(closes.get(parent), i);
    // the root (`<OFX>`) holds everything, whether or not the file closes it
    if (parent === undefined || ownClose < parentClose) {
      if (stack.length >= MAX_DEPTH) throw new NotOfxError('nesting too deep');
      stack.push(tag.name);
      out.push(`<${tag.name}>`);
      if (tag.name === 'STMTTRN') out.push(`<${LINE_ELEMENT}>${line}</${LINE_ELEMENT}>`);
    } else {
      out.push(`<${tag.name}></${tag.name}>`);
    }
  }
  while (stack.length) out.push(`</${stack.pop()}>`);
  return out.join('');
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/** Where `<OFX>` starts, in any letter case; -1 when the text has none. */
function indexOfOfx(text: string): number {
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    if (text.slice(at, at + 5).toUpperCase() === '<OFX>') return at;
  }
  return -1;
}

interface Tag {
  name: string;
  close: boolean;
}

/** `<NAME>` or `</NAME>` (names upper-cased, as OFX names are); null for anything else between `<` and `>`. */
function parseTag(token: string): Tag | null {
  const close = token.startsWith('</');
  const name = token
    .slice(close ? 2 : 1, -1)
    .trim()
    .toUpperCase();
  if (name === '' || name.length > 64) return null;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok = (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 46 || c === 95;
    if (!ok) return null;
  }
  return { name, close };
}

/** The token indexes of each element's end tags, in ascending order. */
function closePositions(tokens: string[]): Map<string, number[]> {
  const closes = new Map<string, number[]>();
  for (let i = 1; i < tokens.length; i += 2) {
    const tag = parseTag(tokens[i]);
    if (!tag?.close) continue;
    const list = closes.get(tag.name) ?? [];
    list.push(i);
    closes.set(tag.name, list);
  }
  return closes;
}

/** The first position in the ascending `list` after `i`; Infinity when there is none. */
function nextAfter(list: number[] | undefined, i: number): number {
  if (!list) return Infinity;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] <= i) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo] : Infinity;
}

/**
 * The text split around its tags (text, tag, text, …, text): a tag runs from a `<` to the next `>`. A scan,
 * since a pattern would restart at every `<` of a long run with no `>` after it.
 */
function splitTags(text: string): string[] {
  const tokens: string[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('<', from);
    const close = open < 0 ? -1 : text.indexOf('>', open + 1);
    if (close < 0) break;
    tokens.push(text.slice(from, open), text.slice(open, close + 1));
    from = close + 1;
  }
  tokens.push(text.slice(from));
  return tokens;
}

/** Text as XML character data: a stray `&` (not an entity) and any `<` or `>` escaped. */
function escapeText(text: string): string {
  return text
    .replace(/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/g, '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}
