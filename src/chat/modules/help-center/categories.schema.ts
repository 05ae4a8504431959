import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { Locale } from './portals.schema.js';

const Position = Type.Integer({ minimum: 0, maximum: 1000000, description: 'Order in the portal, lowest first' });

const CategoryFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  slug: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Unique in the portal and locale; made from the name when absent',
    }),
  ),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  locale: Type.Optional(Locale),
  position: Type.Optional(Position),
};

export const CategoryCreateBody = Type.Object(CategoryFields);
export type CategoryCreateBody = Static<typeof CategoryCreateBody>;

export const CategoryUpdateBody = Type.Partial(Type.Object(CategoryFields));
export type CategoryUpdateBody = Static<typeof CategoryUpdateBody>;

export const CategoryListQuery = { locale: Type.Optional(Locale) };

export const CategorySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  locale: Type.String(),
  description: Nullable(Type.String()),
  position: Type.Integer(),
  account_id: Type.Integer(),
  portal_id: Type.Integer(),
  articles_count: Type.Integer(),
  meta: Type.Object({ articles_count: Type.Integer() }),
  created_at: Type.Integer({ description: 'UNIX seconds' }),
  updated_at: Type.Integer({ description: 'UNIX seconds' }),
});

export const CategoryListSchema = Type.Object({
  payload: Type.Array(CategorySchema),
  meta: Type.Object({ categories_count: Type.Integer() }),
});
export const CategoryOneSchema = Type.Object({ payload: CategorySchema });
