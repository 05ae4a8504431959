import type { FastifyRequest } from 'fastify';

/** Low-level helpers of `readMultipart` for the raw request stream. */

/**
 * Watches the raw body for the multipart close delimiter (`--<boundary>--`), which a complete
 * body always carries; returns whether it was seen so far. Chunks are scanned with a carry-over
 * so a delimiter split across two chunks is found.
 */
export function watchCloseDelimiter(request: FastifyRequest): { seen: () => boolean; stop: () => void } {
  const header = request.headers['content-type'] ?? '';
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(header);
  if (!boundary) return { seen: () => false, stop: () => {} };
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}--`);
  const keep = delimiter.length - 1;
  let seen = false;
  let carry = Buffer.alloc(0);
  const stop = () => request.raw.off('data', onData);
  const onData = (chunk: Buffer) => {
    const straddling = Buffer.concat([carry, chunk.subarray(0, keep)]);
    if (straddling.includes(delimiter) || chunk.includes(delimiter)) {
      seen = true;
      stop();
      return;
    }
    const tail =
      chunk.length >= keep ? chunk.subarray(chunk.length - keep) : Buffer.concat([carry, chunk]).subarray(-keep);
    carry = Buffer.from(tail);
  };
  request.raw.on('data', onData);
  return { seen: () => seen, stop };
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
 * After a failure the rest of the body is discarded (the parser is detached and the request
 * drained) so the client can read the answer; Node's `requestTimeout` bounds a body that never ends.
 */
export function stopReading(request: FastifyRequest) {
  const raw = request.raw;
  raw.unpipe();
  raw.resume();
}
