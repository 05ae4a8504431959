import type { Kysely, KyselyPlugin } from 'kysely';

/** A handle on `db` that counts the queries run through it: `counter.queries`, which tests may reset. */
export function countingQueries<DB>(db: Kysely<DB>): { db: Kysely<DB>; counter: { queries: number } } {
  const counter = { queries: 0 };
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      counter.queries += 1;
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  return { db: db.withPlugin(plugin), counter };
}
