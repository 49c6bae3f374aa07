/**
 * On the time-skipping test server, a test that cancels a workflow waits for it with the clock held still
 * (`settledWithClockHeld`, test/helpers/timeSkipping.ts), never with the time-skipping client's `result()`:
 * that lets the server skip time, and a timer firing while the cancelling workflow task is in progress wedges
 * the run on Java's test server, a hang that shows only on a loaded machine. A failure names the file and test.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './importGraph';

const DIR = path.join(ROOT, 'test/workflows');

/** Each `it(…)` of a file as [its first line, its text up to the next test]. */
function tests(source: string): Array<[string, string]> {
  const lines = source.split('\n');
  const starts = lines.flatMap((line, i) => (/^\s*it(?:\.each)?\(/.test(line) ? [i] : []));
  return starts.map((start, k) => [lines[start].trim(), lines.slice(start, starts[k + 1]).join('\n')]);
}

describe('cancels on the time-skipping server', () => {
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.test.ts'));

  it('finds the time-skipping tests', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it('wait for a cancelled workflow with the clock held still, not with the skipping result()', () => {
    const offenders = files.flatMap((file) =>
      tests(fs.readFileSync(path.join(DIR, file), 'utf8'))
        .filter(([, body]) => body.includes('.cancel(') && /\.result\(\)/.test(body))
        .map(([title]) => `test/workflows/${file}: ${title}`),
    );
    expect(offenders).toEqual([]);
  });
});
