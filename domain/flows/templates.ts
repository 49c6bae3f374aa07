/**
 * The small template language of flow steps (docs/api/flows.md#templates): strings may hold
 * `{{trigger.<path>}}` and `{{steps.<name>.output.<path>}}`. Evaluation only walks own properties of
 * plain JSON values: no `eval`, no `Function`, and the segments `__proto__`, `constructor` and
 * `prototype` are refused, so a template can read nothing but the data it is given.
 */

/** A reference that cannot be resolved (unknown step, missing property, refused segment). */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const REFUSED = new Set(['__proto__', 'constructor', 'prototype']);

/** One `{{ … }}` in a string: where it starts, where it ends (exclusive), and the reference inside, trimmed. */
interface Placeholder {
  start: number;
  end: number;
  ref: string;
}

/**
 * The placeholders of a string, left to right. A placeholder is `{{`, then no brace at all, then `}}`; the
 * reference is what lies between, without surrounding whitespace. A `{{` whose next brace is not `}}` is plain
 * text and the search goes on from its second character. Written as a scan rather than a regular expression:
 * each character is read a bounded number of times, so an unclosed `{{` followed by 100 KB of spaces costs
 * what any 100 KB string costs (docs/architecture.md#regular-expressions).
 */
function placeholders(text: string): Placeholder[] {
  const found: Placeholder[] = [];
  let i = text.indexOf('{{');
  while (i >= 0) {
    let j = i + 2;
    while (j < text.length && text[j] !== '{' && text[j] !== '}') j++;
    if (text[j] === '}' && text[j + 1] === '}') {
      found.push({ start: i, end: j + 2, ref: text.slice(i + 2, j).trim() });
      i = text.indexOf('{{', j + 2);
    } else {
      i = text.indexOf('{{', i + 1);
    }
  }
  return found;
}

/** What a template reads: the trigger's input and the outputs of the steps that ran. */
export interface TemplateScope {
  trigger: unknown;
  steps: Record<string, { output: unknown }>;
}

/** A reference split into checked segments. Throws TemplateError for a malformed or refused path. */
export function parsePath(path: string): string[] {
  const segments = path.split('.');
  for (const s of segments) {
    if (!SEGMENT.test(s)) throw new TemplateError(`Malformed reference "${path}"`);
    if (REFUSED.has(s)) throw new TemplateError(`Reference "${path}" uses the refused segment "${s}"`);
  }
  if (segments[0] === 'trigger') return segments;
  if (segments[0] === 'steps' && segments.length >= 3 && segments[2] === 'output') return segments;
  throw new TemplateError(`Reference "${path}" must start with trigger. or steps.<name>.output`);
}

/** The step a reference names (`steps.<name>.output…`), or null for a trigger reference. */
export function referencedStep(path: string): string | null {
  const segments = parsePath(path);
  return segments[0] === 'steps' ? segments[1] : null;
}

/** Every reference inside the strings of `value` (any depth), each with its JSON path under `at`. */
export function collectReferences(value: unknown, at: string): Array<{ path: string; ref: string }> {
  const found: Array<{ path: string; ref: string }> = [];
  const walk = (v: unknown, p: string) => {
    if (typeof v === 'string') {
      for (const { ref } of placeholders(v)) found.push({ path: p, ref });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${p}.${i}`));
    } else if (v && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) walk(item, `${p}.${k}`);
    }
  };
  walk(value, at);
  return found;
}

function own(value: unknown, key: string): { found: boolean; value?: unknown } {
  if (Array.isArray(value)) {
    if (!/^\d+$/.test(key)) return { found: false };
    const i = Number(key);
    return i < value.length ? { found: true, value: value[i] } : { found: false };
  }
  if (value && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, key)) {
    return { found: true, value: (value as Record<string, unknown>)[key] };
  }
  return { found: false };
}

/** The value at a reference. Throws TemplateError when any part of it is missing. */
export function resolvePath(path: string, scope: TemplateScope): unknown {
  const segments = parsePath(path);
  let current: unknown;
  let rest: string[];
  if (segments[0] === 'trigger') {
    current = scope.trigger;
    rest = segments.slice(1);
  } else {
    const step = own(scope.steps, segments[1]);
    if (!step.found) throw new TemplateError(`Step "${segments[1]}" has no output yet`);
    current = (step.value as { output: unknown }).output;
    rest = segments.slice(3);
  }
  for (const key of rest) {
    const next = own(current, key);
    if (!next.found) throw new TemplateError(`"${path}" does not exist`);
    current = next.value;
  }
  return current;
}

/** Whether a reference resolves (for the condition `exists`). Malformed references still throw. */
export function pathExists(path: string, scope: TemplateScope): boolean {
  parsePath(path);
  try {
    resolvePath(path, scope);
    return true;
  } catch {
    return false;
  }
}

/**
 * Renders every string in `value`: a string that is exactly one placeholder becomes the referenced
 * value itself (an object stays an object); placeholders inside longer text become text (JSON for
 * anything but a string). Throws TemplateError for a bad reference.
 */
export function render(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') {
    const found = placeholders(value);
    if (found.length === 1 && found[0].start === 0 && found[0].end === value.length)
      return resolvePath(found[0].ref, scope);
    let text = '';
    let from = 0;
    for (const { start, end, ref } of found) {
      const v = resolvePath(ref, scope);
      text += value.slice(from, start) + (typeof v === 'string' ? v : JSON.stringify(v ?? null));
      from = end;
    }
    return text + value.slice(from);
  }
  if (Array.isArray(value)) return value.map((v) => render(v, scope));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // defineProperty, so a key named `__proto__` in the data stays a plain key
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, { value: render(v, scope), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** Renders to text: a non-string result is written as JSON. */
export function renderText(value: string, scope: TemplateScope): string {
  const v = render(value, scope);
  return typeof v === 'string' ? v : JSON.stringify(v ?? null);
}
