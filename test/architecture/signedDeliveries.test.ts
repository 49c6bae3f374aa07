/**
 * Every signed delivery (webhook events, saved outputs) goes through one engine, domain/deliveries/
 * (docs/api/webhooks.md): only its signature module computes `X-SVC-Signature`, only its POST sets the
 * delivery headers, and only the engine calls either. A second signer elsewhere could drift from the one
 * receivers verify. A failure names the file and what it does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sourceFiles } from './importGraph';

const ROOT = path.resolve(__dirname, '../..');
const SOURCE_DIRS = ['api', 'activities', 'domain', 'db', 'platform', 'workflows', 'worker', 'scripts'];
const ENGINE = 'domain/deliveries/';
/** What each engine file may do that no other file may. */
const ALLOWED: Record<string, string[]> = {
  'domain/deliveries/signature.ts': ['names the signature header', 'signs a delivery body'],
  'domain/deliveries/signedPost.ts': ['sets the delivery headers', 'signs a delivery body', 'posts a signed delivery'],
  'domain/deliveries/signedAttempt.ts': ['posts a signed delivery'],
};

const SIGNING: Array<[string, RegExp]> = [
  ['names the signature header', /x-svc-signature/i],
  ['sets the delivery headers', /x-svc-(?:delivery|attempt)/i],
  ['signs a delivery body', /\bsignatureHeader\s*\(/],
  ['posts a signed delivery', /\bsignedPost\s*\(/],
];

/** What `text` does of the engine's work, as `file: what` lines, less what `file` may do. */
export function signingOutsideEngine(file: string, text: string): string[] {
  const allowed = new Set(ALLOWED[file] ?? []);
  return SIGNING.filter(([what, pattern]) => !allowed.has(what) && pattern.test(text)).map(
    ([what]) => `${file}: ${what}`,
  );
}

describe('signed deliveries', () => {
  it('only the engine signs and posts deliveries', () => {
    const files = sourceFiles(SOURCE_DIRS).filter((f) => !f.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => signingOutsideEngine(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the engine itself is seen signing (the checker is not blind)', () => {
    const found = Object.keys(ALLOWED).flatMap((f) =>
      SIGNING.filter(([, pattern]) => pattern.test(fs.readFileSync(path.join(ROOT, f), 'utf8'))).map(
        ([what]) => `${f}: ${what}`,
      ),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        'domain/deliveries/signature.ts: names the signature header',
        'domain/deliveries/signedPost.ts: sets the delivery headers',
        'domain/deliveries/signedAttempt.ts: posts a signed delivery',
      ]),
    );
    expect(Object.keys(ALLOWED).every((f) => f.startsWith(ENGINE))).toBe(true);
  });

  it.each([
    ["headers: { 'X-SVC-Signature': `t=${t},v1=${hex}` }", 'names the signature header'],
    ["const SIG = 'x-svc-signature';", 'names the signature header'],
    ["{ 'X-SVC-Delivery': id }", 'sets the delivery headers'],
    ['const header = signatureHeader(secret, body, now);', 'signs a delivery body'],
    ['await signedPost({ url, secret, body }, opts);', 'posts a signed delivery'],
  ])('catches a planted signer: %s', (snippet, what) => {
    expect(signingOutsideEngine('domain/outputs/planted.ts', snippet)).toEqual([`domain/outputs/planted.ts: ${what}`]);
  });

  it('leaves other signatures alone', () => {
    const text =
      "ctx.get('X-Hub-Signature-256'); createHmac('sha256', key).update(url); postSignedAttempt(log, t, 1, o);";
    expect(signingOutsideEngine('domain/whatsapp/hook.ts', text)).toEqual([]);
  });
});
