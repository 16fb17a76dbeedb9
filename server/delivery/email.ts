import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface EmailMessage {
  subject: string;
  text: string;
  html?: string;
  /** An app path (alert emails) that becomes an absolute link under PUBLIC_URL. */
  path?: string;
}

export interface EmailSender {
  send(to: string, msg: EmailMessage): Promise<void>;
  close(): void;
}

/** SMTP via nodemailer when SMTP_URL is set; otherwise undefined and email stays in the outbox. */
export function createEmailSender(config: Config): EmailSender | undefined {
  if (!config.SMTP_URL) return undefined;
  const transport = nodemailer.createTransport(config.SMTP_URL);
  const base = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  return {
    async send(to, msg) {
      const link = msg.path ? `\n\nView: ${base}${msg.path}` : '';
      await transport.sendMail({ from: config.MAIL_FROM, to, subject: msg.subject, text: `${msg.text}${link}`, html: msg.html });
    },
    close: () => transport.close(),
  };
}
