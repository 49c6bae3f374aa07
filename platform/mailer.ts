import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from './logger';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP when `SVC_SMTP_URL` is set. Otherwise each mail is written to a file of its own in `dir` (mode 0600),
 * so a local user can still follow the verification link, and the log names only the file: a mail's text
 * holds one-time links, which are credentials and never reach a log line (docs/operations.md#mail).
 */
export function createMailer(opts: { smtpUrl?: string; from: string; logger: Logger; dir: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: opts.from, ...mail });
      },
    };
  }
  return {
    async send(mail) {
      await mkdir(opts.dir, { recursive: true, mode: 0o700 });
      const file = path.join(opts.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.txt`);
      await writeFile(file, `From: ${opts.from}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`, {
        mode: 0o600,
        flag: 'wx',
      });
      opts.logger.info(
        { mail: { to: mail.to, subject: mail.subject, file } },
        'mail written to a file (SMTP not configured)',
      );
    },
  };
}
