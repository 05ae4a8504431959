import type { DialectName } from '../../../core/db/database.js';
import { createFullTextIndex } from '../../../core/db/full-text.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import { ARTICLE_TEXT } from './help-center.tables.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * The help center: portals (slug unique in the installation), their categories and articles, and
 * the full-text index of the articles. Deleting an account removes its portals, and a portal its
 * categories and articles; deleting a category leaves its articles without one.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  const table = (name: string) => withId(db.schema.createTable(name), dialect);
  const index = (name: string, on: string, columns: string[], unique = false) => {
    const b = db.schema.createIndex(name).on(on).columns(columns);
    return (unique ? b.unique() : b).execute();
  };

  await table('help_portals')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('color', 'text')
    .addColumn('homepage_link', 'text')
    .addColumn('custom_domain', 'text')
    .addColumn('header_text', 'text')
    .addColumn('page_title', 'text')
    .addColumn('default_locale', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('help_portals_slug_uidx', 'help_portals', ['slug'], true);
  await index('help_portals_custom_domain_uidx', 'help_portals', ['custom_domain'], true);
  await index('help_portals_account_idx', 'help_portals', ['account_id']);

  await table('help_categories')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('portal_id', 'bigint', (c) => c.notNull().references('help_portals.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('help_categories_slug_uidx', 'help_categories', ['portal_id', 'locale', 'slug'], true);
  await index('help_categories_account_portal_idx', 'help_categories', ['account_id', 'portal_id', 'position']);

  await table('help_articles')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('portal_id', 'bigint', (c) => c.notNull().references('help_portals.id').onDelete('cascade'))
    .addColumn('category_id', 'bigint', (c) => c.references('help_categories.id').onDelete('set null'))
    .addColumn('author_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('views', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('published_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('help_articles_slug_uidx', 'help_articles', ['portal_id', 'slug'], true);
  await index('help_articles_account_portal_idx', 'help_articles', ['account_id', 'portal_id', 'status']);
  // Readers' pages: a portal's published articles, by category.
  await index('help_articles_portal_status_idx', 'help_articles', ['portal_id', 'status', 'category_id']);
  await index('help_articles_category_idx', 'help_articles', ['category_id']);
  await index('help_articles_author_idx', 'help_articles', ['author_id']);

  await createFullTextIndex(db, dialect, ARTICLE_TEXT);
}

export const migration0030HelpCenter: PortableMigration = { up };
