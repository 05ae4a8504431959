import type { Transporter } from 'nodemailer';

/** One e-mail as the worker hands it to a transport. */
export interface MailMessage {
  /** The queue id: the Message-ID is derived from it, so a retried e-mail keeps its Message-ID. */
  id: string;
  from: string;
  to: readonly string[];
  subject: string;
  text: string;
  html?: string | null;
  replyTo?: string | null;
  attachments?: readonly MailAttachment[];
}

/** A file sent with an e-mail (kept base64-encoded in the queue). */
export interface MailAttachment {
  filename: string;
  contentType?: string;
  /** The bytes, base64-encoded. */
  contentBase64: string;
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * An SMTP transport from a connection URL (`SMTP_URL`): `smtp://user:pass@host:587` (STARTTLS when
 * the server offers it), `smtps://user:pass@host:465` (TLS from the start); nodemailer's query
 * options are honoured (e.g. `?requireTLS=true`). Connection, greeting and socket timeouts are
 * bounded so a stuck server cannot hold a worker. nodemailer is loaded with the first e-mail (most
 * starts send none, and it is a measurable part of start time and memory).
 */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  let opened: Promise<Transporter> | undefined;
  const open = async () => {
    const [{ default: nodemailer }, { default: shared }] = await Promise.all([
      import('nodemailer'),
      import('nodemailer/lib/shared/index.js'),
    ]);
    return nodemailer.createTransport({
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      ...shared.parseConnectionUrl(smtpUrl),
    });
  };
  return {
    async send(message) {
      const transporter = await (opened ??= open());
      const domain = /@([^>\s]+)>?\s*$/.exec(message.from)?.[1] ?? 'ponte.local';
      await transporter.sendMail({
        messageId: `<${message.id}@${domain}>`,
        from: message.from,
        to: [...message.to],
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        ...(message.attachments?.length
          ? {
              attachments: message.attachments.map((a) => ({
                filename: a.filename,
                content: Buffer.from(a.contentBase64, 'base64'),
                ...(a.contentType ? { contentType: a.contentType } : {}),
              })),
            }
          : {}),
      });
    },
    close() {
      void opened?.then((transporter) => transporter.close()).catch(() => undefined);
    },
  };
}
