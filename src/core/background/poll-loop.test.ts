import { describe, expect, it } from 'vitest';
import { PollLoop } from './poll-loop.js';

const IDLE = 60_000; // longer than any test: a second pass can only come from a poke

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((r) => setTimeout(r, 1));
}

describe('PollLoop', () => {
  it('runs a pass at start, then waits the delay the pass returned', async () => {
    let passes = 0;
    const loop = new PollLoop(
      async () => (passes++, IDLE),
      () => undefined,
    );
    loop.start();
    await until(() => passes === 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(passes).toBe(1);
    await loop.stop();
  });

  it('a poke while a pass runs is remembered: the next pass follows right after', async () => {
    const first = deferred();
    let passes = 0;
    const loop = new PollLoop(
      async () => {
        passes++;
        if (passes === 1) await first.promise;
        return IDLE;
      },
      () => undefined,
    );
    loop.start();
    await until(() => passes === 1);
    loop.poke(); // during the first pass
    first.resolve();
    await until(() => passes === 2);
    await loop.stop();
    expect(passes).toBe(2);
  });

  it('a poke while idle runs a pass now', async () => {
    let passes = 0;
    const loop = new PollLoop(
      async () => (passes++, IDLE),
      () => undefined,
    );
    loop.start();
    await until(() => passes === 1);
    loop.poke();
    await until(() => passes === 2);
    await loop.stop();
  });

  it('reports a failing pass and tries again after the error delay', async () => {
    const errors: unknown[] = [];
    let passes = 0;
    const loop = new PollLoop(
      async () => {
        passes++;
        if (passes === 1) throw new Error('database away');
        return IDLE;
      },
      (err) => errors.push(err),
      5,
    );
    loop.start();
    await until(() => passes === 2);
    await loop.stop();
    expect(errors).toEqual([new Error('database away')]);
  });

  it('stop waits for the running pass and nothing runs after it, pokes included', async () => {
    const release = deferred();
    let passes = 0;
    let finished = false;
    const loop = new PollLoop(
      async () => {
        passes++;
        await release.promise;
        finished = true;
        return 0;
      },
      () => undefined,
    );
    loop.start();
    await until(() => passes === 1);
    const stopping = loop.stop();
    loop.poke();
    release.resolve();
    await stopping;
    expect(finished).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(passes).toBe(1);
  });
});
