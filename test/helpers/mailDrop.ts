import { readFile } from 'node:fs/promises';
import type { Harness } from './harness';
import { pollUntil } from './poll';

/**
 * The text of the last mail to `to` that a harness without SMTP wrote to a file (platform/mailer.ts): the log
 * names the file, never the text, since a mail's links are credentials (docs/operations.md#mail).
 */
export async function mailTo(h: Harness, to: string): Promise<{ file: string; text: string }> {
  const file = await pollUntil(
    10_000,
    () =>
      h.logs
        .map((line) => JSON.parse(line) as { msg?: string; mail?: { to?: string; file?: string } })
        .filter((l) => l.msg === 'mail written to a file (SMTP not configured)' && l.mail?.to === to)
        .at(-1)?.mail?.file,
    (f) => f !== undefined,
    `a mail to ${to}`,
  );
  return { file: file!, text: await readFile(file!, 'utf8') };
}
