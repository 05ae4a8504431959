import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';

/**
 * How many contacts each account has, kept by triggers on `contacts` (as 0016 does for
 * conversations): the unfiltered contact list answers its `count` from one row instead of
 * counting every contact of the account.
 */
async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('contact_counts')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('count', 'bigint', (c) => c.notNull())
    .execute();

  const increment = `insert into contact_counts (account_id, count) values (NEW.account_id, 1)
    on conflict (account_id) do update set count = contact_counts.count + 1`;
  const decrement = `update contact_counts set count = count - 1 where account_id = OLD.account_id`;
  if (dialect === 'sqlite') {
    await sql.raw(`create trigger contact_counts_insert after insert on contacts begin ${increment}; end`).execute(db);
    await sql.raw(`create trigger contact_counts_delete after delete on contacts begin ${decrement}; end`).execute(db);
    await sql
      .raw(
        `create trigger contact_counts_update after update of account_id on contacts
         when OLD.account_id <> NEW.account_id begin ${decrement}; ${increment}; end`,
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `create function contact_counts_keep() returns trigger language plpgsql as $$
         begin
           if tg_op in ('UPDATE', 'DELETE') then ${decrement}; end if;
           if tg_op in ('UPDATE', 'INSERT') then ${increment}; end if;
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger contact_counts_insert after insert on contacts for each row execute function contact_counts_keep()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger contact_counts_delete after delete on contacts for each row execute function contact_counts_keep()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger contact_counts_update after update of account_id on contacts for each row
         when (OLD.account_id <> NEW.account_id) execute function contact_counts_keep()`,
      )
      .execute(db);
  }
  await sql
    .raw(`insert into contact_counts (account_id, count) select account_id, count(*) from contacts group by account_id`)
    .execute(db);
}

export const migration0017ContactCounts: PortableMigration = { up };
