import nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail; the server's is SMTP (SMTP_URL, MAIL_FROM), tests may pass their own. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** An SMTP mailer over nodemailer: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…`. */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}
