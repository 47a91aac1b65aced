/**
 * Email: through SMTP when SMTP_URL is set; otherwise each message is written to an outbox folder, so a
 * fresh install can still verify accounts and reset passwords, and (outside production only) to the log.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: config.mailFrom, ...mail });
      },
      close: () => transport.close(),
    };
  }
  // Without SMTP the message goes to the outbox folder (owner-only files). Its link is a credential
  // (reset, invitation, verification): in production the log says only that mail is not configured.
  const showText = config.env !== 'production';
  return {
    async send(mail) {
      await mkdir(config.outboxDir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(config.outboxDir, `${stamp}-${mail.to.replace(/[^a-z0-9@._-]/gi, '_')}.txt`);
      await writeFile(
        file,
        `From: ${config.mailFrom}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`,
        { mode: 0o600 },
      );
      if (showText)
        log.info({ to: mail.to, subject: mail.subject }, `email (no SMTP_URL set):\n${mail.text}`);
      else
        log.warn(
          { to: mail.to, subject: mail.subject, file },
          'email not sent: mail is not configured (set SMTP_URL); saved to the outbox folder',
        );
    },
    close: () => {},
  };
}
