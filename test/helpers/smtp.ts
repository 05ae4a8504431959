import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** An e-mail as the test SMTP server received it, with its text body decoded. */
export interface ReceivedEmail {
  from: string | null;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  raw: string;
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const soft = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      const hex = soft.slice(i + 1, i + 3);
      if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else bytes.push(...Buffer.from(soft[i], 'utf8'));
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return body;
}

/** A header with RFC 2047 encoded words (`=?UTF-8?Q?Relat=C3=B3rio?=`) as text. */
export function decodeHeader(value: string): string {
  const word = /=\?[^?]+\?([QqBb])\?([^?]*)\?=/g;
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(word, (_all, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
    );
}

/** Parses a single-part text e-mail (what the mail worker sends without html). */
export function parseEmail(raw: string, envelope: { from: string | null; to: string[] }): ReceivedEmail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const text = decodeBody(raw.slice(split + 4), encoding).replace(/\r\n/g, '\n');
  return { ...envelope, headers, subject: decodeHeader(headers.subject ?? ''), text, raw };
}

/**
 * A real SMTP server on 127.0.0.1 (no TLS, any or no credentials) that collects what it receives.
 * `rejectNext(n)` answers the next n messages with a temporary failure (451).
 */
export class TestSmtpServer {
  readonly received: ReceivedEmail[] = [];
  private rejections = 0;
  private readonly server: SMTPServer;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (this.rejections > 0) {
            this.rejections--;
            const err = Object.assign(new Error('Try again later'), { responseCode: 451 });
            callback(err);
            return;
          }
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
          const to = session.envelope.rcptTo.map((r) => r.address);
          this.received.push(parseEmail(Buffer.concat(chunks).toString('utf8'), { from, to }));
          callback();
        });
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return this;
  }

  get port(): number {
    return (this.server.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://tester:secret@127.0.0.1:${this.port}`;
  }

  rejectNext(n: number) {
    this.rejections = n;
  }

  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedEmail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    return this.received;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
