import net from 'node:net';
import type nodemailer from 'nodemailer';
import type { DestinationGuard } from '../../../core/webhooks/destination-guard.js';

/** An e-mail to send now. */
export interface OutgoingMessage {
  to: string | readonly string[];
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  attachments?: readonly { filename: string; content: string | Buffer; contentType?: string }[];
  /** The Message-ID (the queue's id, so a retried e-mail keeps it); nodemailer makes one otherwise. */
  messageId?: string;
}

/** What the SMTP server answered. */
export interface SentMessage {
  messageId: string;
  response: string;
  accepted: string[];
  rejected: string[];
}

export interface SmtpServer {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  from: { name: string; address: string } | string;
}

/**
 * Resolves the server's name through the destination guard (the same rule as webhooks: loopback,
 * private and metadata addresses only when WEBHOOK_ALLOWED_HOSTS allows them), so an account's SMTP
 * settings cannot be used to probe the internal network. Returns the address to connect to.
 */
function resolveGuarded(guard: DestinationGuard, host: string): Promise<string> {
  let bare: string;
  try {
    bare = guard.checkHost(host);
  } catch (err) {
    return Promise.reject(err as Error);
  }
  if (net.isIP(bare)) return Promise.resolve(bare);
  return new Promise((resolve, reject) =>
    guard.lookup(bare, {}, (err, address) => (err ? reject(err) : resolve(address as string))),
  );
}

/**
 * Sends one e-mail through an SMTP server now (nodemailer, a connection per send): TLS from the
 * start when `secure`, otherwise STARTTLS when the server offers it; bounded timeouts.
 */
export async function sendThroughSmtp(
  server: SmtpServer,
  message: OutgoingMessage,
  guard: DestinationGuard,
): Promise<SentMessage> {
  const address = await resolveGuarded(guard, server.host);
  // Loaded with the first e-mail: most starts send none.
  const { default: nodemailer } = await import('nodemailer');
  const transporter = nodemailer.createTransport({
    host: address,
    // Certificates are checked against the configured name, not the address connected to.
    ...(net.isIP(server.host.replace(/^\[|\]$/g, '')) ? {} : { servername: server.host }),
    port: server.port,
    secure: server.secure,
    auth: { user: server.user, pass: server.password },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } as nodemailer.TransportOptions);
  try {
    const info = await transporter.sendMail({
      ...(message.messageId ? { messageId: message.messageId } : {}),
      from: server.from,
      to: typeof message.to === 'string' ? message.to : [...message.to],
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      ...(message.attachments ? { attachments: message.attachments.map((a) => ({ ...a })) } : {}),
    });
    const list = (v: unknown) =>
      Array.isArray(v) ? v.map((a) => (typeof a === 'string' ? a : String((a as { address?: string }).address))) : [];
    return {
      messageId: String(info.messageId ?? ''),
      response: String(info.response ?? ''),
      accepted: list(info.accepted),
      rejected: list(info.rejected),
    };
  } finally {
    transporter.close();
  }
}
