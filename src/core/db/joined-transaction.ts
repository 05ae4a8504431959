import type { Kysely, Transaction } from 'kysely';

/**
 * A handle on an open transaction that services can use as their root handle: queries run in the
 * transaction, and `db.transaction().execute(fn)` joins it (runs `fn` with the same transaction)
 * instead of failing as Kysely does for a nested `transaction()`. Used to run service methods,
 * which open their own transaction, inside a caller's one (automation rules inside the outbox
 * dispatch transaction). Atomicity of one step is the caller's job (a savepoint around it).
 */
export function joinedTransaction<DB>(trx: Transaction<DB> | Kysely<DB>): Kysely<DB> {
  if (!trx.isTransaction) throw new Error('joinedTransaction needs an open transaction');
  const join = {
    execute: <T>(fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> => fn(proxy),
  };
  const proxy: Kysely<DB> = new Proxy(trx as Kysely<DB>, {
    get(target, prop) {
      if (prop === 'transaction') return () => join;
      // Kysely keeps its state in private fields: methods must run on the real instance.
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return proxy;
}
