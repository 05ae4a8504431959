import { Type, type Static } from '@sinclair/typebox';
import { HttpUrl, Nullable } from '../../../core/http/schemas.js';

/** A locale code as Chatwoot writes them: `en`, `pt_BR` (`pt-BR` is read as `pt_BR`). */
export const Locale = Type.String({
  pattern: '^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})?$',
  maxLength: 12,
  description: 'Locale code, e.g. en or pt_BR',
  examples: ['pt_BR'],
});

const Color = Type.String({
  pattern: '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$',
  description: 'Hex color of the portal, e.g. #1F93FF',
  examples: ['#1F93FF'],
});

const PortalFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  slug: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'Unique in the installation: lower-case letters, digits and hyphens, with at least one letter',
  }),
  color: Type.Optional(Nullable(Color)),
  homepage_link: Type.Optional(Nullable(HttpUrl({ description: "Link to the company's own site (http or https)" }))),
  custom_domain: Type.Optional(
    Nullable(Type.String({ format: 'hostname', maxLength: 253, description: 'e.g. help.example.com' })),
  ),
  header_text: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  page_title: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  archived: Type.Optional(Type.Boolean({ description: 'An archived portal is not shown to readers' })),
  config: Type.Optional(Type.Object({ default_locale: Type.Optional(Locale) })),
};

export const PortalCreateBody = Type.Object(PortalFields);
export type PortalCreateBody = Static<typeof PortalCreateBody>;

export const PortalUpdateBody = Type.Partial(Type.Object(PortalFields));
export type PortalUpdateBody = Static<typeof PortalUpdateBody>;

/** A portal in paths: its id, or its slug (Chatwoot's clients send the slug). */
export const PortalRef = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'Portal id or slug',
});

const LocaleCount = Type.Object({
  code: Type.String(),
  articles_count: Type.Integer(),
  categories_count: Type.Integer(),
});

export const PortalSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  color: Nullable(Type.String()),
  custom_domain: Nullable(Type.String()),
  homepage_link: Nullable(Type.String()),
  header_text: Nullable(Type.String()),
  page_title: Nullable(Type.String()),
  archived: Type.Boolean(),
  account_id: Type.Integer(),
  articles_count: Type.Integer(),
  categories_count: Type.Integer(),
  config: Type.Object({ allowed_locales: Type.Array(LocaleCount), default_locale: Type.String() }),
  meta: Type.Object({
    all_articles_count: Type.Integer(),
    archived_articles_count: Type.Integer(),
    published_count: Type.Integer(),
    draft_articles_count: Type.Integer(),
    categories_count: Type.Integer(),
    default_locale: Type.String(),
  }),
  /** The readers' home page. */
  url: Type.String(),
  created_at: Type.Integer({ description: 'UNIX seconds' }),
  updated_at: Type.Integer({ description: 'UNIX seconds' }),
});

export const PortalListSchema = Type.Object({
  payload: Type.Array(PortalSchema),
  meta: Type.Object({ portals_count: Type.Integer(), current_page: Type.Integer() }),
});
