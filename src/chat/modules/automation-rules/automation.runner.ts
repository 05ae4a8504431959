import { sql } from 'kysely';
import type { AccountContext, Trx } from '../../context.js';

/**
 * What every automation engine of the conversation service shares (conversation rules here,
 * pipeline automations in src/chat/modules/pipeline-automations): a subject adapter per record
 * type, an action registry instead of a switch, and each run under a savepoint of its own.
 *
 * A subject adapter loads the record a rule runs against (null when it is gone: nothing to run),
 * tells whether the rule's conditions hold on it, and lists the rule's actions; the engine then
 * applies each action through the registry entry its type names.
 */
export interface SubjectAdapter<Rule, Target, Subject, Step> {
  /** The record type, as runs record it (`conversation`, `card`). */
  readonly type: string;
  load(trx: Trx, ctx: AccountContext, target: Target): Promise<Subject | null>;
  matches(trx: Trx, rule: Rule, subject: Subject, target: Target): Promise<boolean>;
  actions(rule: Rule): readonly Step[];
}

/** An action registry: one handler per action type. */
export type ActionRegistry<Handler> = Readonly<Record<string, Handler>>;

export type SavepointResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs `body` under a savepoint of the caller's transaction: released when it succeeds, rolled
 * back (alone: the transaction and other savepoints keep their work) when it throws. Never throws
 * itself for the body's error; the caller records it.
 */
export async function inSavepoint<T>(trx: Trx, name: string, body: () => Promise<T>): Promise<SavepointResult<T>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad savepoint name ${name}`);
  const savepoint = sql.raw(name);
  await sql`savepoint ${savepoint}`.execute(trx);
  try {
    const value = await body();
    await sql`release savepoint ${savepoint}`.execute(trx);
    return { ok: true, value };
  } catch (error) {
    await sql`rollback to savepoint ${savepoint}`.execute(trx);
    await sql`release savepoint ${savepoint}`.execute(trx);
    return { ok: false, error };
  }
}
