/**
 * Email: through SMTP when SMTP_URL is set; otherwise each message is written to the server log (with its
 * link) and to an outbox folder, so a fresh install can still verify accounts and reset passwords.
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
  return {
    async send(mail) {
      log.info({ to: mail.to, subject: mail.subject }, `email (no SMTP_URL set):\n${mail.text}`);
      await mkdir(config.outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(config.outboxDir, `${stamp}-${mail.to.replace(/[^a-z0-9@._-]/gi, '_')}.txt`);
      await writeFile(
        file,
        `From: ${config.mailFrom}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`,
      );
    },
    close: () => {},
  };
}
