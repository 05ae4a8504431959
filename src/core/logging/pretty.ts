import { Writable } from 'node:stream';

/**
 * The log as a person reads it on a terminal: one short line per entry instead of a JSON object.
 * pino writes its JSON lines here and they are rewritten, so what is logged (and redacted) is the
 * same in both formats. No dependency: the format is small and ours (pino-pretty would bring a
 * dozen packages for it).
 *
 *   14:02:07 INFO  chat     POST /api/v1/accounts/1/contacts 200 4.2 ms
 *   14:02:08 INFO  chat     GET /api/v1/accounts/1/contacts/9 404 0.8 ms  not_found: Contact not found
 *   14:02:09 WARN  chat     agent invitation not sent: SMTP_URL is not set  userId=7
 */

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLORS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' };

/** Fields every entry has, or that the line shows in its own place. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'service', 'requestId', 'req', 'res', 'err']);
const REQUEST_SHOWN = new Set([...SHOWN, 'responseTime', 'code', 'reason']);

const clock = (time: unknown) => {
  const d = new Date(typeof time === 'number' ? time : Date.now());
  return d.toTimeString().slice(0, 8);
};

const value = (v: unknown) => (typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v));

/** One JSON log entry as a readable line (the stack of an error on the lines after it). */
/** What the readable line reads of a pino entry (every other field is shown as key=value). */
interface LogEntry extends Record<string, unknown> {
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  err?: { stack?: string; type?: string; message?: string };
}

export function prettyLine(json: string, color = false): string {
  let entry: LogEntry;
  try {
    entry = JSON.parse(json);
  } catch {
    return json;
  }
  const level = Number(entry.level);
  const name = (LEVELS[level] ?? String(entry.level)).padEnd(5);
  const head = `${clock(entry.time)} ${color ? `\x1b[${COLORS[level] ?? '0'}m${name}\x1b[0m` : name} ${String(entry.service ?? '').padEnd(8)} `;
  const { req, res, err } = entry;
  const shown = req && res ? REQUEST_SHOWN : SHOWN;
  const rest = Object.entries(entry)
    .filter(([k]) => !shown.has(k))
    .map(([k, v]) => `${k}=${value(v)}`);
  let text: string;
  if (req && res) {
    text = `${req.method} ${req.url} ${res.statusCode} ${String(entry.responseTime ?? '?')} ms`;
    if (entry.code) rest.unshift(`${String(entry.code)}: ${String(entry.reason ?? '')}`);
  } else text = String(entry.msg ?? '');
  const line = `${head}${text}${rest.length ? `  ${rest.join(' ')}` : ''}`;
  const stack = err?.stack ?? (err ? `${err.type ?? 'Error'}: ${err.message}` : '');
  return stack ? `${line}\n${String(stack).replace(/^/gm, '    ')}` : line;
}

/** A pino destination that writes the readable form of each entry to `out`. */
export function prettyDestination(out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): Writable {
  const color = out.isTTY === true && !process.env.NO_COLOR;
  let pending = '';
  return new Writable({
    write(chunk, _encoding, done) {
      pending += String(chunk);
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const text = lines
        .filter(Boolean)
        .map((l) => `${prettyLine(l, color)}\n`)
        .join('');
      if (text) out.write(text);
      done();
    },
  });
}
