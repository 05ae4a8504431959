import type { AccountContext, Trx } from '../../context.js';

/**
 * What every automation engine of the conversation service shares (conversation rules here,
 * pipeline automations in src/chat/modules/pipeline-automations): a subject adapter per record
 * type, an action registry instead of a switch, and each run under a savepoint of its own
 * (core/db/savepoint.ts).
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
