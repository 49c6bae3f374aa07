/**
 * The README's TypeScript examples compile against the client's sources, so the documentation cannot
 * drift from the API it shows (a renamed method or field fails here).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'client', 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** Names the short examples use without declaring them, as an earlier example left them. */
const CONTEXT: Array<[string, string]> = [
  ['svc', "import('@svc/client').Svc"],
  ['agent', "import('@svc/client').Agent"],
  ['agentId', 'string'],
];

describe('client/README.md', () => {
  it('shows install, a run with every human gate, and a webhook receiver', () => {
    expect(readme).toMatch(/## Install[\s\S]*npm install @svc\/client/);
    const gate = blocks.find((b) => b.includes("presetId: 'reviewed-writer'"));
    expect(gate).toBeDefined();
    for (const call of ['runs.create', 'runs.wait', 'runs.input', 'runs.approve', 'runs.review', 'runs.output'])
      expect(gate).toContain(`svc.${call}(`);
    expect(gate).toContain('correctedOutput');
    const receiver = blocks.find((b) => b.includes('createServer'));
    expect(receiver).toContain('verifyWebhookSignature(secret');
    expect(blocks.some((b) => b.includes('svc.webhooks.create('))).toBe(true);
  });

  it('has TypeScript examples that compile against the client', async () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const dir = mkdtempSync(join(tmpdir(), 'svc-client-readme-'));
    try {
      const files = blocks.map((block, i) => {
        const declared = (name: string) => new RegExp(`(?:const|let|var)\\s+${name}\\b`).test(block);
        const prelude = CONTEXT.filter(([name]) => !declared(name) && new RegExp(`\\b${name}\\b`).test(block))
          .map(([name, type]) => `declare const ${name}: ${type};`)
          .join('\n');
        const file = join(dir, `example-${i + 1}.ts`);
        writeFileSync(file, `${prelude}\n${block}\nexport {};\n`);
        return file;
      });
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'Bundler',
            lib: ['ES2022', 'DOM'],
            types: ['node'],
            typeRoots: [join(root, 'node_modules', '@types')],
            paths: { '@svc/client': [join(root, 'client', 'src', 'index.ts')] },
          },
          files,
        }),
      );
      const tsc = join(root, 'node_modules', '.bin', 'tsc');
      const output = await promisify(execFile)(tsc, ['-p', join(dir, 'tsconfig.json')], { cwd: dir }).then(
        () => '',
        (err: { stdout?: string; message: string }) => err.stdout || err.message,
      );
      expect(output).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
