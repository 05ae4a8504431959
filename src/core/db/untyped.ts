import type { ExpressionBuilder, Kysely, SelectQueryBuilder, Transaction } from 'kysely';

/**
 * A database whose schema the code at hand does not know: migrations (they run before the schema
 * they create exists) and core's schema-agnostic machinery (jobs, outbox, retention, metrics, mail,
 * change epochs), which both services hand their own databases. Where such code reads a table of
 * its own it types the rows itself. The one place the project spells `any` for a schema.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: the schema is not known here
export type UntypedSchema = any;

export type UntypedDb = Kysely<UntypedSchema>;
export type UntypedTransaction = Transaction<UntypedSchema>;
/** A query on a table named at run time (`selectFrom(table)`): its tables and row are not known either. */
export type UntypedQuery = SelectQueryBuilder<UntypedSchema, UntypedSchema, UntypedSchema>;
export type UntypedExpressions = ExpressionBuilder<UntypedSchema, UntypedSchema>;
