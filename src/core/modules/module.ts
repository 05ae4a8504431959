import type { FastifyBaseLogger } from 'fastify';
import type { PortableMigration } from '../db/migrator.js';
import type { EventListener } from '../events/dispatcher.js';
import type { EventMap } from '../events/outbox.js';
import type { JobDefinition } from '../jobs/jobs.js';

/** What a module's listeners and jobs are built from. */
export interface ModuleContext<Deps, Services> {
  deps: Deps;
  services: Services;
  logger: FastifyBaseLogger;
}

/**
 * A module of a service, declared in one place: its migrations, the services it adds to the
 * service's container, its route plugins, its event listeners and its jobs. A service lists its
 * modules once (chat/modules.ts, finance/modules.ts); the app, the background and the migrator
 * read that list, so adding a module is its folder plus one line there.
 *
 * Services are built in list order: a module's `services` sees the services of the modules before
 * it. Its service types join the container's type by declaration merging (see chat/container.ts),
 * and its tables join the database type the same way (chat/db/schema.ts).
 */
export interface ServiceModule<Deps, Services, DB, M extends EventMap<M>, Routes> {
  readonly name: string;
  /** Named with the service-wide sequence (`0010_pipeline`): names are applied in order and never change. */
  readonly migrations?: Readonly<Record<string, PortableMigration>>;
  services?(deps: Deps, built: Services): Partial<Services>;
  readonly routes?: readonly Routes[];
  listeners?(context: ModuleContext<Deps, Services>): EventListener<DB, M>[];
  jobs?(context: ModuleContext<Deps, Services>): JobDefinition[];
}

type AnyModule = ServiceModule<any, any, any, any, any>;

/** Every migration of the modules, in name order; a name used twice is a startup error. */
export function collectMigrations(modules: readonly AnyModule[]): Record<string, PortableMigration> {
  const all: Record<string, PortableMigration> = {};
  for (const module of modules) {
    for (const [name, migration] of Object.entries(module.migrations ?? {})) {
      if (all[name]) throw new Error(`migration ${name} is declared twice (module ${module.name})`);
      all[name] = migration;
    }
  }
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
}

/** The service container: each module's services, built in list order. */
export function buildServices<Deps, Services>(
  deps: Deps,
  modules: readonly ServiceModule<Deps, Services, any, any, any>[],
): Services {
  const services = {} as Services;
  for (const module of modules) Object.assign(services as object, module.services?.(deps, services) ?? {});
  return services;
}

/** The listeners and jobs of every module. */
export function backgroundOf<Deps, Services, DB, M extends EventMap<M>>(
  modules: readonly ServiceModule<Deps, Services, DB, M, any>[],
  context: ModuleContext<Deps, Services>,
): { listeners: EventListener<DB, M>[]; jobs: JobDefinition[] } {
  return {
    listeners: modules.flatMap((m) => m.listeners?.(context) ?? []),
    jobs: modules.flatMap((m) => m.jobs?.(context) ?? []),
  };
}
