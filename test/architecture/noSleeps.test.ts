/**
 * Tests wait for what a user would see, never for a guessed time, and assert no wall-clock spacing: on a
 * loaded machine a sleep is either too short (a flake) or too long (a slow suite), and elapsed time measures
 * the machine, not the code. Waiting is `pollUntil` (test/helpers/poll.ts); timers, retry schedules and
 * timeouts of workflows are asserted on the time-skipping server's clock (test/workflows/, docs/testing.md);
 * the cost of work (a hostile input's, a zip bomb's) is a ratio against a baseline timed in the same run
 * (`costRatio` and `growth`, test/helpers/cost.ts), never a number of milliseconds.
 * A failure lists `file:line: code`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { matchingLines, ROOT } from './importGraph';

/**
 * Where a timer or the wall clock is the subject itself: a folder, a file, or one line of a file (`line`: text the
 * line contains), each with why. Add one only when no observable state or skipped clock can stand in.
 */
const ALLOWED: Array<{ path: string; line?: string; why: string }> = [
  { path: 'test/helpers/', why: 'the one polling helper, the one cost measure and the harness' },
  { path: 'test/drills/', why: 'a separate program (not jest) that measures real outages and recoveries' },
  // real sockets and the client's own timers: the timeout or the Retry-After window is what is tested
  { path: 'test/platform/net/safeHttp.test.ts', why: 'connect and read timeouts of the outbound guard' },
  { path: 'test/platform/net/dnsServers.test.ts', line: 'Date.now', why: 'a dead DNS server times out' },
  { path: 'test/domain/models/openai.test.ts', line: 'Date.now', why: 'an abort and a timeout end the call' },
  { path: 'test/client/transport.test.ts', line: 'Date.now', why: "the client waits out a 429's Retry-After" },
  { path: 'test/client/e2e-account.test.ts', line: 'Date.now', why: 'the client waits out a rate-limit window' },
  { path: 'test/client/wait.test.ts', why: "the client's own polling interval and deadline" },
  { path: 'test/phone/telephony.ts', line: 'setTimeout(r, 50)', why: "the fake provider's pacing of a call" },
  { path: 'test/runs/holds.test.ts', line: 'setTimeout(r, 10)', why: "a sampler's pace while a burst runs" },
  {
    path: 'test/runs/recovery.test.ts',
    line: 'setTimeout(r, 6_000)',
    why: 'an outage longer than the 3 attempts of a call (1 s, 2 s) is the fault injected',
  },
  // Not converted yet: waits that assert that nothing more happens, to rewrite onto an observable end
];

function allowed(file: string, line: string): boolean {
  return ALLOWED.some((a) => file.startsWith(a.path) && (a.line === undefined || line.includes(a.line)));
}

/** A bare sleep: a promise around a timer, the timers/promises module, or a call of a sleep-like function. */
const SLEEPS = [
  /new Promise\b.*\bsetTimeout\(/,
  /\btimers\/promises\b/,
  /(?:^|[^.\w])(?:sleep|delay|pause|wait)\(\s*[\w.]/,
];

/** The wall clock read to measure or bound time (ids and signatures built from it are fine). */
const CLOCK = /\b(?:Date|performance)\.now\(\)/g;
const CLOCK_AS_VALUE = [/\$\{$/, /String\($/, /new Date\($/, /Math\.(?:floor|ceil|round)\($/];

function readsClock(line: string): boolean {
  for (const m of line.matchAll(CLOCK)) {
    const before = line.slice(0, m.index).trimEnd();
    const after = line.slice(m.index + m[0].length).trimStart();
    const asValue = CLOCK_AS_VALUE.some((re) => re.test(before)) || after.startsWith('/ 1000');
    if (!asValue) return true;
  }
  return false;
}

/** The lines of `text` (the file `file`, relative to the root) that sleep or time themselves. */
export function sleepsAndClocks(file: string, text: string): string[] {
  return matchingLines(
    file,
    text,
    // comments, and the string literals of a planted example, are no code
    (line) =>
      !/^(?:\/\/|\/\*|\*|['"`])/.test(line) &&
      (SLEEPS.some((re) => re.test(line)) || readsClock(line)) &&
      !allowed(file, line),
  );
}

function testFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? testFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
    );
}

describe('no sleeps as synchronisation', () => {
  it('catches a planted sleep, a home-made deadline loop and an elapsed-time assertion, and lets ids be', () => {
    const planted = [
      'await new Promise((r) => setTimeout(r, 500));',
      "import { setTimeout as wait } from 'node:timers/promises';",
      'await sleep(1500);',
      'const deadline = Date.now() + 10_000;',
      'expect(performance.now() - started).toBeLessThan(5_000);',
      'const id = `probe_${Date.now()}`;',
      'const t = Math.floor(Date.now() / 1000);',
      'await env.sleep(60_000);',
      "setTimeout(() => res.end('late'), 1000);",
    ].join('\n');
    expect(sleepsAndClocks('test/x/planted.test.ts', planted).map((l) => l.split(':')[1])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(sleepsAndClocks('test/helpers/poll.ts', planted)).toEqual([]);
  });

  it('every allowance still names something, so the list only shrinks', () => {
    const files = testFiles('test');
    for (const a of ALLOWED) {
      const matching = files.filter((f) => f.startsWith(a.path));
      expect({ path: a.path, exists: matching.length > 0 }).toEqual({ path: a.path, exists: true });
      if (a.path.endsWith('/')) continue;
      const text = fs.readFileSync(path.join(ROOT, a.path), 'utf8');
      const used = text
        .split('\n')
        .some((line) => (SLEEPS.some((re) => re.test(line)) || readsClock(line)) && (!a.line || line.includes(a.line)));
      expect({ path: a.path, line: a.line, used }).toEqual({ path: a.path, line: a.line, used: true });
    }
  });

  it('no test outside test/helpers/ sleeps or reads the wall clock to wait or to time itself', () => {
    const files = testFiles('test');
    expect(files).toContain('test/architecture/noSleeps.test.ts');
    const found = files.flatMap((f) => sleepsAndClocks(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });
});
