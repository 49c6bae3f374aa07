/** One line of a line diff: in both texts, only in the new one, or only in the old one. */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** Above this many cells the LCS table is not built: the differing middle shows as removed, then added. */
const MAX_CELLS = 4_000_000;

/**
 * The lines of `before` and `after` as a unified diff by the longest common subsequence of lines: every
 * line of both texts once, in order, a line kept in both marked `same`. The common first and last lines
 * are set aside before the table is built, so a small change to a long text stays cheap.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head = a.slice(0, start).map((text): DiffLine => ({ kind: 'same', text }));
  const tail = a.slice(endA).map((text): DiffLine => ({ kind: 'same', text }));
  return [...head, ...middle(a.slice(start, endA), b.slice(start, endB)), ...tail];
}

function middle(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const removed = (text: string): DiffLine => ({ kind: 'removed', text });
  const added = (text: string): DiffLine => ({ kind: 'added', text });
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_CELLS) return [...a.map(removed), ...b.map(added)];
  // lcs[i * (m + 1) + j]: the length of the longest common subsequence of a[i..] and b[j..]
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] =
        a[i] === b[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i] });
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) out.push(removed(a[i++]));
    else out.push(added(b[j++]));
  }
  while (i < n) out.push(removed(a[i++]));
  while (j < m) out.push(added(b[j++]));
  return out;
}

/** A run of unchanged lines left out of a shown diff. */
export interface Skipped {
  kind: 'skipped';
  count: number;
}

/**
 * The diff as a reader wants it: every change with `context` unchanged lines around it, each longer run of
 * unchanged lines folded into one `skipped` entry.
 */
export function withContext(lines: DiffLine[], context = 3): (DiffLine | Skipped)[] {
  const near = lines.map(() => false);
  lines.forEach((l, i) => {
    if (l.kind === 'same') return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) near[k] = true;
  });
  const out: (DiffLine | Skipped)[] = [];
  lines.forEach((l, i) => {
    if (near[i]) out.push(l);
    else {
      const last = out[out.length - 1];
      if (last?.kind === 'skipped') last.count++;
      else out.push({ kind: 'skipped', count: 1 });
    }
  });
  return out;
}
