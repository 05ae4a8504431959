import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { App } from '../../core/http/app.types.js';
import type { Text } from '../../core/i18n/catalogue.js';
import { ctxOf } from '../auth/finance-auth.plugin.js';
import type { FinanceContext } from '../context.js';
import { Envelope, MessageEnvelope, bearer, errorResponses, ok } from './envelope.js';

/** The records with these routes, as their success messages name them. */
export type RecordNoun = 'Transaction' | 'Bill' | 'Invoice' | 'Contract';

/** What a record's service offers the routes: a paged list, and reads and writes by id. */
export interface RecordService<Row, Query, Create, Update> {
  list(ctx: FinanceContext, query: Query): Promise<{ rows: Row[]; total: number }>;
  get(ctx: FinanceContext, id: number): Promise<Row>;
  create(ctx: FinanceContext, body: Create): Promise<Row>;
  update(ctx: FinanceContext, id: number, body: Update): Promise<Row>;
  delete(ctx: FinanceContext, id: number): Promise<void>;
}

/** A state change of one record, `POST {path}/:id/{name}` (pay, issue, cancel): 409 when it does not apply. */
export interface RecordAction<Row> {
  name: string;
  summary: string;
  /** The success message, e.g. "Bill paid". */
  message: Text;
  run(ctx: FinanceContext, id: number): Promise<Row>;
}

export interface RecordRoutesOptions<
  Row,
  Q extends TObject<{ page: TSchema; limit: TSchema }>,
  C extends TSchema,
  U extends TSchema,
> {
  /** The collection's path, e.g. `/api/bills`. */
  path: string;
  tag: string;
  /** Capitalised, for the success messages: "Bill created" (each one a key of the catalogue). */
  noun: RecordNoun;
  schemas: { record: TSchema; list: TSchema; query: Q; params: TObject; create: C; update: U };
  /** The record as the API shows it (`schemas.record`). */
  present(row: Row): unknown;
  service: RecordService<Row, Static<Q>, Static<C>, Static<U>>;
  summaries: { list: string; create: string; show: string; update: string; delete: string };
  /** Registered after the update routes and before delete, in this order. */
  actions?: RecordAction<Row>[];
}

/**
 * The routes of a finance record collection (transactions, bills, invoices, contracts), all in the
 * finance envelope: list, create (201), show, update by PUT or PATCH alike, the record's state
 * changes, and delete (administrators). Any member reads and writes.
 */
export function registerRecordRoutes<
  Row,
  Q extends TObject<{ page: TSchema; limit: TSchema }>,
  C extends TSchema,
  U extends TSchema,
>(app: App, options: RecordRoutesOptions<Row, Q, C, U>): void {
  const { path, noun, schemas, present, service: svc, summaries } = options;
  const tags = [options.tag];
  const id = `${path}/:id`;
  const one = { 200: Envelope(schemas.record) };

  app.get(
    path,
    {
      schema: {
        tags,
        security: bearer,
        summary: summaries.list,
        querystring: schemas.query,
        response: { 200: Envelope(schemas.list), ...errorResponses(401, 422) },
      },
    },
    async (req) => {
      // TypeScript cannot resolve the validated query's type through the generic schema.
      const query = req.query as Static<Q> & { page: number; limit: number };
      const { rows, total } = await svc.list(ctxOf(req), query);
      return ok({ items: rows.map(present), total, page: query.page, limit: query.limit });
    },
  );

  app.post(
    path,
    {
      schema: {
        tags,
        security: bearer,
        summary: summaries.create,
        body: schemas.create,
        response: { 201: Envelope(schemas.record), ...errorResponses(401, 422) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(ok(present(await svc.create(ctxOf(req), req.body)), `${noun} created` as const)),
  );

  app.get(
    id,
    {
      schema: {
        tags,
        security: bearer,
        summary: summaries.show,
        params: schemas.params,
        response: { ...one, ...errorResponses(401, 404, 422) },
      },
    },
    async (req) => ok(present(await svc.get(ctxOf(req), idOf(req.params)))),
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      id,
      {
        schema: {
          tags,
          security: bearer,
          summary: summaries.update,
          params: schemas.params,
          body: schemas.update,
          response: { ...one, ...errorResponses(401, 404, 422) },
        },
      },
      async (req) => ok(present(await svc.update(ctxOf(req), idOf(req.params), req.body)), `${noun} updated` as const),
    );
  }

  for (const action of options.actions ?? []) {
    app.post(
      `${id}/${action.name}`,
      {
        schema: {
          tags,
          security: bearer,
          summary: action.summary,
          params: schemas.params,
          response: { ...one, ...errorResponses(401, 404, 409, 422) },
        },
      },
      async (req) => ok(present(await action.run(ctxOf(req), idOf(req.params))), action.message),
    );
  }

  app.delete(
    id,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: bearer,
        summary: summaries.delete,
        params: schemas.params,
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), idOf(req.params));
      return ok(null, `${noun} deleted` as const);
    },
  );
}

/** The `:id` the params schema has validated and converted to a number. */
function idOf(params: unknown): number {
  return (params as { id: number }).id;
}
