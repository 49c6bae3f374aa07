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
 * SMTP when `SVC_SMTP_URL` is set, otherwise the mail is written to the log so a local
 * user can still follow the verification link.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; logger: Logger }): Mailer {
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
      opts.logger.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'mail (SMTP not configured)');
    },
  };
}
