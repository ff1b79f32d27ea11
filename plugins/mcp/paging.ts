/** Paged list tools: `limit` and `cursor` arguments passed to REST as they are, and `next_cursor` in every answer. */
import { type TSchema, Type } from '@sinclair/typebox';

/** Smaller than REST's 1000: a page is read by a model, whose context is the scarce resource. */
export const maxToolPage = 200;
export const defaultToolPage = 50;

export const pageArgs = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: maxToolPage, default: defaultToolPage, description: `items per page, 1..${maxToolPage} (default ${defaultToolPage})` }),
  ),
  cursor: Type.Optional(Type.String({ minLength: 1, description: 'next_cursor of the previous page; omit for the first page' })),
};

export const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'pass as `cursor` to get the next page; null on the last page',
});

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `{items, next_cursor}` of one kind of item. */
export const pageOf = <T extends TSchema>(item: T) => Type.Object({ items: Type.Array(item), next_cursor: NextCursor });

/** Every list tool answers newest first, as REST lists do. */
export const newestFirst = 'Newest first.';
