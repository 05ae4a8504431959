import { Type, type Static } from '@sinclair/typebox';
import { IdParam, Nullable, PageQuery } from '../../../core/http/schemas.js';
import { Locale } from './portals.schema.js';

/** A status by name, or by Chatwoot's number (0 draft, 1 published, 2 archived). */
const Status = (names: string[]) =>
  Type.Union([Type.Union(names.map((n) => Type.Literal(n))), Type.Integer({ minimum: 0, maximum: names.length - 1 })], {
    description: `${names.join(', ')} (or ${names.map((n, i) => `${i} ${n}`).join(', ')})`,
  });

const ArticleFields = {
  title: Type.String({ minLength: 1, maxLength: 255 }),
  content: Type.String({ maxLength: 500000, description: 'Markdown' }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  category_id: Type.Optional(Nullable(IdParam)),
  author_id: Type.Optional(Nullable(IdParam)),
  slug: Type.Optional(
    Type.String({ minLength: 1, maxLength: 150, description: 'Unique in the portal; made from the title when absent' }),
  ),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000000 })),
};

/** A new article is a draft or published; archiving is for articles that exist. */
export const ArticleCreateBody = Type.Object({
  ...ArticleFields,
  status: Type.Optional(Status(['draft', 'published'])),
});
export type ArticleCreateBody = Static<typeof ArticleCreateBody>;

export const ArticleUpdateBody = Type.Partial(
  Type.Object({ ...ArticleFields, status: Status(['draft', 'published', 'archived']) }),
);
export type ArticleUpdateBody = Static<typeof ArticleUpdateBody>;

export const ArticleListQuery = {
  page: Type.Optional(PageQuery),
  category_id: Type.Optional(IdParam),
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('archived')])),
  locale: Type.Optional(Locale),
  query: Type.Optional(
    Type.String({ maxLength: 500, description: 'Words searched in titles, descriptions and content' }),
  ),
};

const CategoryRef = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  locale: Type.String(),
});
const Author = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  available_name: Type.String(),
  email: Type.String(),
  thumbnail: Type.String(),
});

export const ArticleSchema = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  title: Type.String(),
  content: Type.String(),
  description: Nullable(Type.String()),
  status: Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('archived')]),
  position: Type.Integer(),
  locale: Type.String(),
  views: Type.Integer(),
  account_id: Type.Integer(),
  portal_id: Type.Integer(),
  category_id: Nullable(Type.Integer()),
  category: Nullable(CategoryRef),
  author_id: Nullable(Type.Integer()),
  author: Nullable(Author),
  meta: Type.Object({}),
  associated_articles: Type.Array(Type.Object({})),
  /** The readers' page (it answers only while the article is published). */
  url: Type.String(),
  published_at: Nullable(Type.Integer({ description: 'UNIX seconds' })),
  created_at: Type.Integer({ description: 'UNIX seconds' }),
  updated_at: Type.Integer({ description: 'UNIX seconds' }),
});

export const ArticleListSchema = Type.Object({
  payload: Type.Array(ArticleSchema),
  meta: Type.Object({
    current_page: Type.Integer(),
    articles_count: Type.Integer({ description: 'Articles matching the filters' }),
    all_articles_count: Type.Integer(),
    published_count: Type.Integer(),
    draft_articles_count: Type.Integer(),
    archived_articles_count: Type.Integer(),
  }),
});
export const ArticleOneSchema = Type.Object({ payload: ArticleSchema });
