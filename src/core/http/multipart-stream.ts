import type { FastifyRequest } from 'fastify';

/** Low-level helpers of `readMultipart` for the raw request stream. */

/** What `watchBody` reports of the raw body as it streams to the parser. */
export interface BodyWatch {
  /** Whether the multipart close delimiter (`--<boundary>--`), which a complete body carries, was seen. */
  closed(): boolean;
  /** Rejects with `onTooLarge()`'s error as soon as more than the allowed bytes have arrived. */
  readonly tooLarge: Promise<never>;
  stop(): void;
}

/**
 * Watches the raw body while the parser reads it: for the close delimiter (chunks are scanned with
 * a carry-over, so a delimiter split across two chunks is found), and for its size, which may not
 * pass `maxBytes` (a client that sends no Content-Length, or a wrong one, is stopped there rather
 * than read to its end).
 */
export function watchBody(request: FastifyRequest, maxBytes: number, onTooLarge: () => Error): BodyWatch {
  const header = request.headers['content-type'] ?? '';
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(header);
  const delimiter = boundary ? Buffer.from(`--${boundary[1] ?? boundary[2]}--`) : null;
  const keep = delimiter ? delimiter.length - 1 : 0;
  let seen = false;
  let carry = Buffer.alloc(0);
  let received = 0;
  let refuse!: (err: Error) => void;
  const tooLarge = new Promise<never>((_resolve, reject) => (refuse = reject));
  tooLarge.catch(() => {}); // awaited only while the parser runs
  const stop = () => request.raw.off('data', onData);
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) {
      stop();
      detach(request);
      refuse(onTooLarge());
      return;
    }
    if (!delimiter || seen) return;
    const straddling = Buffer.concat([carry, chunk.subarray(0, keep)]);
    if (straddling.includes(delimiter) || chunk.includes(delimiter)) {
      seen = true;
      return;
    }
    const tail =
      chunk.length >= keep ? chunk.subarray(chunk.length - keep) : Buffer.concat([carry, chunk]).subarray(-keep);
    carry = Buffer.from(tail);
  };
  request.raw.on('data', onData);
  return { closed: () => seen, tooLarge, stop };
}

/** The error the parser reported for the pending part, if it did so by now (or within one turn). */
export async function parserError(pending: Promise<unknown>): Promise<unknown> {
  const turn = new Promise<undefined>((resolve) => setImmediate(resolve, undefined));
  return Promise.race([
    pending.then(
      () => undefined,
      (err: unknown) => err,
    ),
    turn,
  ]);
}

/**
 * Stops feeding the parser at once, when a refusal is decided: the request is paused (the client is
 * held back by TCP) while the refusal is prepared, then `stopReading` discards the rest.
 */
export function detach(request: FastifyRequest): void {
  request.raw.unpipe();
  request.raw.pause();
}

/** How long a refused request's connection keeps being read after the answer, before it is closed. */
export const LINGER_MS = 2000;

/**
 * After a refusal the parser is detached and the rest of the body is discarded, never stored. When
 * the body has not fully arrived, the answer carries `Connection: close` (`closesConnection`) and
 * the connection is closed after it: first our side (the client reads the answer, then our FIN),
 * while what the client still sends is read and dropped, until it stops or LINGER_MS pass. Closing
 * at once would make the kernel answer the unread bytes with a reset, which can wipe the answer from
 * the client's buffer before it is read. A body that never ends is not waited for: its connection
 * closes LINGER_MS after the answer. (Before any refusal, REQUEST_TIMEOUT_SECONDS bounds a whole
 * request and CONNECTION_TIMEOUT_SECONDS a silent one: Node's own request timeout is off under Fastify.)
 */
export function stopReading(request: FastifyRequest): void {
  const raw = request.raw;
  raw.unpipe();
  raw.resume();
  if (raw.complete) return;
  const socket = raw.socket;
  // Node calls destroySoon once a `Connection: close` answer is written.
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

/** Whether the answer to a refused request closes its connection (the body is still arriving). */
export const closesConnection = (request: FastifyRequest): boolean => !request.raw.complete;
