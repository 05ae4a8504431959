import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Q } from '../../context.js';

export interface LabelsTable {
  id: Generated<number>;
  account_id: number;
  /** Lower case, unique in the account (labels_account_title_uidx). */
  title: string;
  description: string | null;
  color: Generated<string>;
  show_on_sidebar: Generated<number>;
  created_at: number;
  updated_at: number;
}

export type Label = Selectable<LabelsTable>;

export async function listLabels(q: Q, accountId: number) {
  return q.selectFrom('labels').selectAll().where('account_id', '=', accountId).orderBy('title').execute();
}

export async function findLabel(q: Q, accountId: number, id: number) {
  return q.selectFrom('labels').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function findLabelByTitle(q: Q, accountId: number, title: string) {
  return q
    .selectFrom('labels')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('title', '=', title)
    .executeTakeFirst();
}

export async function insertLabel(q: Q, values: Insertable<LabelsTable>) {
  return q.insertInto('labels').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateLabel(q: Q, accountId: number, id: number, values: Updateable<LabelsTable>) {
  return q
    .updateTable('labels')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteLabel(q: Q, accountId: number, id: number) {
  await q.deleteFrom('labels').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/**
 * Renames a label on every contact and conversation of the account that carries it (the shared
 * taggings, both kinds). A record that already carries the new title keeps one tagging of it.
 */
export async function renameTaggings(q: Q, accountId: number, from: string, to: string) {
  await q
    .deleteFrom('taggings')
    .where('taggings.account_id', '=', accountId)
    .where('taggings.label', '=', from)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('taggings as other')
          .select(eb.lit(1).as('one'))
          .where('other.account_id', '=', accountId)
          .where('other.label', '=', to)
          .whereRef('other.taggable_type', '=', 'taggings.taggable_type')
          .whereRef('other.taggable_id', '=', 'taggings.taggable_id'),
      ),
    )
    .execute();
  await q
    .updateTable('taggings')
    .set({ label: to })
    .where('account_id', '=', accountId)
    .where('label', '=', from)
    .execute();
}
