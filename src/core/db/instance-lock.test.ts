import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { InstanceLockError, lockFileOf, lockSqliteFile, lockSteps, type InstanceLock } from './instance-lock.js';

/**
 * The instance lock (instance-lock.ts) is a kernel lock held by the process: the interleavings of
 * two starters, in this process step by step, then real processes racing and a restart right after
 * a kill -9 whose process is not yet reaped.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-lock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;
const databaseFile = () => path.join(dir, `db-${++files}.sqlite`);

type Outcome = { lock: InstanceLock } | { refused: InstanceLockError };

/**
 * Runs two lockers' steps in the given order ('a'/'b', one letter per step), then each one's
 * remaining steps (its retries) to the end, and says how each ended.
 */
function interleave(file: string, order: string): Record<'a' | 'b', Outcome> {
  const steps = { a: lockSteps(file, 'test'), b: lockSteps(file, 'test') };
  const outcome: Partial<Record<'a' | 'b', Outcome>> = {};
  const step = (who: 'a' | 'b') => {
    if (outcome[who]) return;
    try {
      const next = steps[who].next();
      if (next.done) outcome[who] = { lock: next.value };
    } catch (err) {
      if (!(err instanceof InstanceLockError)) throw err;
      outcome[who] = { refused: err };
    }
  };
  for (const who of order) step(who as 'a' | 'b');
  for (const who of ['a', 'b'] as const) while (!outcome[who]) step(who);
  return outcome as Record<'a' | 'b', Outcome>;
}

describe('instance lock, in this process', () => {
  // Each locker opens the file, then locks it: every order of those steps for two lockers.
  const orders = ['aabb', 'abab', 'abba', 'baab', 'baba', 'bbaa'];

  for (const left of ['no file', 'a file a dead process left'])
    it(`lets exactly one of two starters through, in every interleaving (${left})`, () => {
      for (const order of orders) {
        const file = databaseFile();
        if (left !== 'no file') fs.writeFileSync(lockFileOf(file), '');
        const outcome = interleave(file, order);
        const winners = (['a', 'b'] as const).filter((who) => 'lock' in outcome[who]);
        expect(winners, order).toHaveLength(1);
        // The first to take its lock step (its second step) wins; the other is told why and what to do.
        const firstToLock = [...order].find((who, i) => order.indexOf(who) < i);
        expect(winners[0], order).toBe(firstToLock);
        const loser = outcome[winners[0] === 'a' ? 'b' : 'a'] as { refused: InstanceLockError };
        expect(loser.refused.message).toMatch(/in use by another Ponte process.*point the database URLs at PostgreSQL/);
        // Released, the lock is free for the next start; the file stays.
        (outcome[winners[0]] as { lock: InstanceLock }).lock.release();
        lockSqliteFile(file, 'test').release();
        expect(fs.existsSync(lockFileOf(file))).toBe(true);
      }
    });

  it('trusts no pid: a lock file of the old format naming a live process is not a lock', () => {
    for (const pid of [process.pid, 1]) {
      const file = databaseFile();
      fs.writeFileSync(`${file}.lock`, String(pid));
      const lock = lockSqliteFile(file, 'test');
      // The old file is gone; the real lock is held.
      expect(fs.existsSync(`${file}.lock`)).toBe(false);
      expect(() => lockSqliteFile(file, 'test')).toThrow(InstanceLockError);
      lock.release();
    }
  });

  it('refuses a lock file something else wrote into, saying what to do', () => {
    const file = databaseFile();
    fs.writeFileSync(lockFileOf(file), 'not a lock '.repeat(100));
    expect(() => lockSqliteFile(file, 'test')).toThrow(/is not the instance lock of .*delete that file/);
  });
});

/** A child process running test/fixtures/lock-holder.ts, spoken to line by line. */
async function holder(): Promise<{ child: ChildProcess; ask(line: string): Promise<string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/lock-holder.ts'], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const answers: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else answers.push(line);
  });
  const read = () =>
    answers.length > 0 ? Promise.resolve(answers.shift()!) : new Promise<string>((r) => waiting.push(r));
  expect(await read()).toBe('ready');
  return {
    child,
    ask(line: string) {
      child.stdin!.write(`${line}\n`);
      return read();
    },
  };
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/**
 * Whether a process is dead but not reaped by its parent: a zombie whose threads have all exited
 * (the thread-group leader shows `Z` while its other threads may still be exiting).
 */
function isZombie(pid: number): boolean {
  try {
    const tasks = fs.readdirSync(`/proc/${pid}/task`);
    return tasks.length === 1 && /\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe.skipIf(process.platform !== 'linux')('instance lock, between processes', () => {
  it('is free at once after a kill -9, while the killed process is still a zombie', async () => {
    const file = databaseFile();
    const owner = await holder();
    try {
      expect(await owner.ask(`lock ${file}`)).toBe('won');
      // The refusal names the holder (read from the kernel's lock table, for the message only).
      expect(() => lockSqliteFile(file, 'test')).toThrow(`(pid ${owner.child.pid})`);
      owner.child.kill('SIGKILL');
      // No await until the lock is taken: Node reaps its children in the event loop, so the killed
      // process stays a zombie (its pid still "alive" to kill(pid, 0)) for as long as this spins.
      const deadline = Date.now() + 10_000;
      while (!isZombie(owner.child.pid!) && Date.now() < deadline) {
        /* wait for the kernel to finish the kill */
      }
      expect(isZombie(owner.child.pid!)).toBe(true);
      const lock = lockSqliteFile(file, 'test');
      lock.release();
    } finally {
      owner.child.kill('SIGKILL');
      await exited(owner.child);
    }
  }, 30_000);

  it('lets exactly one of two processes through in 100 races on locks left by a killed process', async () => {
    const trials = 100;
    const raced = Array.from({ length: trials }, databaseFile);
    // A process takes every lock, then is killed: each file is a lock left by a dead process.
    const dead = await holder();
    for (const file of raced) expect(await dead.ask(`lock ${file}`)).toBe('won');
    dead.child.kill('SIGKILL');
    await exited(dead.child);

    const [a, b] = await Promise.all([holder(), holder()]);
    try {
      for (const file of raced) {
        // Both are told at once; each answers once it has tried.
        const answers = await Promise.all([a.ask(`lock ${file}`), b.ask(`lock ${file}`)]);
        expect(answers.sort(), file).toEqual(['lost', 'won']);
        await Promise.all([a.ask('release'), b.ask('release')]);
      }
    } finally {
      for (const p of [a, b]) {
        p.child.stdin!.end();
        await exited(p.child);
      }
    }
  }, 60_000);
});
