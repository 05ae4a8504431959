import type { Updateable } from 'kysely';
import { conflict, forbidden, invalidField, notFound, unprocessable } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Q } from '../../context.js';
import type { User } from '../../db/schema.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { UsersService } from '../users/users.service.js';
import type { ArticleStatus, HelpPortal, HelpPortalsTable } from './help-center.tables.js';
import { portalSlug } from './help-center.slugs.js';
import * as repo from './portals.repository.js';
import type { PortalCreateBody, PortalUpdateBody } from './portals.schema.js';

export interface PortalCounts {
  byStatus: Record<ArticleStatus, number>;
  categories: number;
  /** Articles and categories per locale, the portal's default locale included. */
  locales: Map<string, { articles: number; categories: number }>;
}

export interface PortalView {
  portal: HelpPortal;
  counts: PortalCounts;
}

/** `pt-br` -> `pt_BR`, `EN` -> `en`, `zh-hans` -> `zh_Hans`: one spelling per locale. */
export function normalizeLocale(locale: string): string {
  const [language, region] = locale.split(/[_-]/);
  if (!region) return language.toLowerCase();
  const tail = region.length === 4 ? region[0].toUpperCase() + region.slice(1).toLowerCase() : region.toUpperCase();
  return `${language.toLowerCase()}_${tail}`;
}

const normalizeDomain = (domain: string) => domain.trim().toLowerCase().replace(/\.$/, '');
const ACCOUNT_ID = /^[1-9]\d{0,9}$/;

const slugTaken = () =>
  conflict('A portal with this slug already exists', [{ field: 'slug', message: 'has already been taken' }]);
const domainTaken = () =>
  conflict('Another portal already uses this custom domain', [
    { field: 'custom_domain', message: 'has already been taken' },
  ]);

/**
 * Help center portals of an account. Slugs and custom domains are unique in the whole
 * installation (they address the readers' pages). Members read, administrators write.
 */
export class PortalsService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly users: UsersService,
    private readonly accounts: AccountsService,
  ) {}

  /** The base of the readers' links. */
  get publicUrl(): string {
    return this.deps.config.chat.publicUrl;
  }

  /**
   * The account context of the spec's `/api/v1/portals...` paths, which carry no account: the
   * `account_id` query parameter, or the user's only account (422 when the user has several and
   * names none). Not a member of the named account: 404, as on `{A}/...` paths.
   */
  async accountContextFor(user: User, rawAccountId: unknown, adminOnly: boolean): Promise<AccountContext> {
    const memberships = await this.users.memberships(this.deps.db, user.id);
    let membership: (typeof memberships)[number] | undefined;
    if (rawAccountId !== undefined) {
      if (typeof rawAccountId !== 'string' || !ACCOUNT_ID.test(rawAccountId) || Number(rawAccountId) > 2147483647)
        throw invalidField('account_id', 'must be the id of an account');
      membership = memberships.find((m) => m.id === Number(rawAccountId));
    } else if (memberships.length > 1) {
      throw unprocessable('account_id is required: you are a member of several accounts', [
        { field: 'account_id', message: 'is required when you are a member of several accounts' },
      ]);
    } else {
      membership = memberships[0];
    }
    if (!membership) throw notFound('Account');
    if (adminOnly && membership.role !== 'administrator')
      throw forbidden('Only administrators of this account may do this');
    return { accountId: membership.id, actor: { type: 'user', user }, role: membership.role, userId: user.id };
  }

  async list(ctx: AccountContext): Promise<PortalView[]> {
    const portals = await repo.listPortals(this.deps.db, ctx.accountId);
    return this.withCounts(this.deps.db, ctx.accountId, portals);
  }

  async get(ctx: AccountContext, ref: string): Promise<PortalView> {
    const portal = await this.find(this.deps.db, ctx.accountId, ref);
    return (await this.withCounts(this.deps.db, ctx.accountId, [portal]))[0];
  }

  /** A portal of the account by id (all digits) or slug; 404 otherwise. */
  async find(q: Q, accountId: number, ref: string): Promise<HelpPortal> {
    const portal = /^\d+$/.test(ref)
      ? Number(ref) <= 2147483647
        ? await repo.findPortal(q, accountId, Number(ref))
        : undefined
      : await repo.findPortalBySlugIn(q, accountId, ref.toLowerCase());
    if (!portal) throw notFound('Portal');
    return portal;
  }

  async create(ctx: AccountContext, body: PortalCreateBody): Promise<PortalView> {
    const name = body.name.trim();
    if (name === '') throw invalidField('name', "can't be blank");
    const slug = portalSlug(body.slug);
    const customDomain = body.custom_domain ? normalizeDomain(body.custom_domain) : null;
    const portal = await this.deps.db.transaction().execute(async (trx) => {
      if (await repo.findPortalBySlug(trx, slug)) throw slugTaken();
      if (customDomain && (await repo.findPortalByDomain(trx, customDomain))) throw domainTaken();
      const account = await this.accounts.find(trx, ctx.accountId);
      const now = Date.now();
      return repo.insertPortal(trx, {
        account_id: ctx.accountId,
        name,
        slug,
        color: body.color ?? null,
        homepage_link: body.homepage_link ?? null,
        custom_domain: customDomain,
        header_text: body.header_text ?? null,
        page_title: body.page_title ?? null,
        default_locale: normalizeLocale(body.config?.default_locale ?? account?.locale ?? 'en'),
        archived: body.archived ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
    });
    return (await this.withCounts(this.deps.db, ctx.accountId, [portal]))[0];
  }

  async update(ctx: AccountContext, ref: string, body: PortalUpdateBody): Promise<PortalView> {
    const changes: Updateable<HelpPortalsTable> = {};
    if (body.name !== undefined) {
      const name = body.name.trim();
      if (name === '') throw invalidField('name', "can't be blank");
      changes.name = name;
    }
    if (body.slug !== undefined) changes.slug = portalSlug(body.slug);
    if (body.custom_domain !== undefined)
      changes.custom_domain = body.custom_domain === null ? null : normalizeDomain(body.custom_domain);
    for (const field of ['color', 'homepage_link', 'header_text', 'page_title'] as const)
      if (body[field] !== undefined) changes[field] = body[field];
    if (body.archived !== undefined) changes.archived = body.archived ? 1 : 0;
    if (body.config?.default_locale !== undefined) changes.default_locale = normalizeLocale(body.config.default_locale);
    const portal = await this.deps.db.transaction().execute(async (trx) => {
      const portal = await this.find(trx, ctx.accountId, ref);
      if (typeof changes.slug === 'string' && changes.slug !== portal.slug) {
        if (await repo.findPortalBySlug(trx, changes.slug)) throw slugTaken();
      }
      if (typeof changes.custom_domain === 'string' && changes.custom_domain !== portal.custom_domain) {
        if (await repo.findPortalByDomain(trx, changes.custom_domain)) throw domainTaken();
      }
      if (Object.keys(changes).length === 0) return portal;
      return (await repo.updatePortal(trx, ctx.accountId, portal.id, { ...changes, updated_at: Date.now() })) ?? portal;
    });
    return (await this.withCounts(this.deps.db, ctx.accountId, [portal]))[0];
  }

  /** Deletes the portal with its categories and articles. */
  async delete(ctx: AccountContext, ref: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const portal = await this.find(trx, ctx.accountId, ref);
      await repo.deletePortal(trx, ctx.accountId, portal.id);
    });
  }

  private async withCounts(q: Q, accountId: number, portals: HelpPortal[]): Promise<PortalView[]> {
    const ids = portals.map((p) => p.id);
    const [articles, categories] = await Promise.all([
      repo.countArticles(q, accountId, ids),
      repo.countCategories(q, accountId, ids),
    ]);
    return portals.map((portal) => {
      const counts: PortalCounts = {
        byStatus: { draft: 0, published: 0, archived: 0 },
        categories: 0,
        locales: new Map([[portal.default_locale, { articles: 0, categories: 0 }]]),
      };
      const locale = (code: string) => {
        let entry = counts.locales.get(code);
        if (!entry) counts.locales.set(code, (entry = { articles: 0, categories: 0 }));
        return entry;
      };
      for (const row of articles.filter((r) => r.portal_id === portal.id)) {
        counts.byStatus[row.status] += row.n;
        locale(row.locale).articles += row.n;
      }
      for (const row of categories.filter((r) => r.portal_id === portal.id)) {
        counts.categories += row.n;
        locale(row.locale).categories += row.n;
      }
      return { portal, counts };
    });
  }
}
