import fs from 'node:fs';
import path from 'node:path';
import { combineRuns, targetsTable, type RunOutput } from './lib/repeat';

/**
 * `tsx bench/summarize.ts <out.json> <run.json>...`, called by bench/run.sh after its runs: judges every
 * target on the median of the runs, prints the verdict table and writes `<out.json>` (bench/results/latest.json,
 * or the quick mode's file) with the verdicts and every run whole.
 */
function main(): void {
  const [out, ...files] = process.argv.slice(2);
  if (!out || files.length === 0) throw new Error('usage: tsx bench/summarize.ts <out.json> <run.json>...');
  const runs = files.map((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as RunOutput);
  const combined = combineRuns(runs);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(combined, null, 2)}\n`);
  console.log(`## Targets, ${combined.judgedOn} (${runs.map((r) => r.date).join(', ')})\n`);
  console.log(`${targetsTable(combined.targets)}\n`);
  console.error(`[bench] wrote ${path.relative(process.cwd(), out)}`);
}

main();
