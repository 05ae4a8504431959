import type { FastifyBaseLogger } from 'fastify';
import type { PortableMigration } from '../db/migrator.js';
import type { EventListener } from '../events/dispatcher.js';
import type { EventMap } from '../events/outbox.js';
import type { JobDefinition } from '../jobs/jobs.js';

/** What a module's listeners and jobs are built from. */
export interface ModuleContext<Deps, Services, Name extends string = string> {
  deps: Deps;
  services: Services;
  logger: FastifyBaseLogger;
  /** What every module of the service declares (its events). */
  declared: Declared<Name>;
}

/** The events a module records that leave the service, by name (keys of the service's event map). */
export interface ModuleEvents<Name extends string> {
  /** Subscribable by webhooks; the event's snapshot is the body. */
  readonly webhooks?: readonly Name[];
  /** Other names a subscription may use for them (alias -> event). */
  readonly webhookAliases?: Readonly<Record<string, Name>>;
  /** Pushed to `/cable` clients (the service's realtime routing decides who gets each). */
  readonly realtime?: readonly Name[];
}

/** What the modules of a service declare together: built once from the module list. */
export interface Declared<Name extends string = string> {
  /** Every webhook event name, in module order. */
  readonly webhookEvents: readonly Name[];
  readonly webhookAliases: Readonly<Record<string, Name>>;
  readonly realtimeEvents: ReadonlySet<Name>;
}

/** The secret that signs a delivery to one subscriber (null: the subscriber is gone). */
export type SubscriberSecret = (subscriberId: number) => Promise<string | null>;

/**
 * A module of a service, declared in one place: its migrations, the services it adds to the
 * service's container, its route plugins, the events it records that leave the service (webhooks,
 * realtime), the subscribers its deliveries go to, its event listeners and its jobs. A service
 * lists its modules once (chat/modules.ts, finance/modules.ts); the app, the background and the
 * migrator read that list, so adding a module is its folder plus one line there.
 *
 * Services are built in list order: a module's `services` sees the services of the modules before
 * it. Its service types join the container's type by declaration merging (see chat/container.ts),
 * and its tables join the database type the same way (chat/db/schema.ts).
 */
/**
 * Extension points: a contract one module's service calls and another module implements (the
 * custom attributes a filter may name, the SLA policies a conversation applies...). The offering
 * module says how an implementation plugs in (`offers`), the filling module gives it (`fills`);
 * `buildServices` connects them once every service is built.
 */
export type Offers<Services, Points> = {
  readonly [K in keyof Points]?: (services: Services, implementation: Points[K]) => void;
};
export type Fills<Points> = { readonly [K in keyof Points]?: Points[K] };

export interface ServiceModule<Deps, Services, DB, M extends EventMap<M>, Routes, Points = object> {
  readonly name: string;
  /** Named with the service-wide sequence (`0010_pipeline`): names are applied in order and never change. */
  readonly migrations?: Readonly<Record<string, PortableMigration>>;
  services?(deps: Deps, built: Services, declared: Declared<keyof M & string>): Partial<Services>;
  readonly routes?: readonly Routes[];
  /** The extension points this module's services offer, and how an implementation plugs in. */
  readonly offers?: Offers<Services, Points>;
  /** The extension points this module fills, from its services. */
  fills?(services: Services): Fills<Points>;
  readonly events?: ModuleEvents<keyof M & string>;
  /** By `subscriber_type`: the secret of a subscriber this module's deliveries go to. */
  subscribers?(services: Services): Readonly<Record<string, SubscriberSecret>>;
  listeners?(context: ModuleContext<Deps, Services, keyof M & string>): EventListener<DB, M>[];
  jobs?(context: ModuleContext<Deps, Services, keyof M & string>): JobDefinition[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of modules of any service: only their shape is read
type AnyModule = ServiceModule<any, any, any, any, any, any>;

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

/** What the modules declare together; an event or alias declared twice is a startup error. */
export function declaredBy<Name extends string = string>(modules: readonly AnyModule[]): Declared<Name> {
  const webhookEvents: Name[] = [];
  const webhookAliases: Record<string, Name> = {};
  const realtimeEvents = new Set<Name>();
  for (const module of modules) {
    const events = (module.events ?? {}) as ModuleEvents<Name>;
    for (const name of events.webhooks ?? []) {
      if (webhookEvents.includes(name))
        throw new Error(`webhook event ${name} is declared twice (module ${module.name})`);
      webhookEvents.push(name);
    }
    for (const [alias, name] of Object.entries(events.webhookAliases ?? {})) {
      if (webhookAliases[alias]) throw new Error(`webhook alias ${alias} is declared twice (module ${module.name})`);
      webhookAliases[alias] = name;
    }
    for (const name of events.realtime ?? []) realtimeEvents.add(name);
  }
  return { webhookEvents, webhookAliases, realtimeEvents };
}

/**
 * The service container: each module's services, built in list order; then each extension point
 * a module fills is plugged into the module that offers it. A point filled twice, or filled and
 * offered by no module, is a startup error.
 */
export function buildServices<Deps, Services>(
  deps: Deps,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the modules' tables, events, routes and points vary
  modules: readonly ServiceModule<Deps, Services, any, any, any, any>[],
): Services {
  const services = {} as Services;
  const declared = declaredBy(modules);
  for (const module of modules) Object.assign(services as object, module.services?.(deps, services, declared) ?? {});
  connectExtensionPoints(modules, services);
  return services;
}

function connectExtensionPoints<Services>(modules: readonly AnyModule[], services: Services): void {
  const filled = new Map<string, { by: string; implementation: unknown }>();
  for (const module of modules)
    for (const [point, implementation] of Object.entries(module.fills?.(services) ?? {})) {
      const before = filled.get(point);
      if (before) throw new Error(`extension point ${point} is filled twice (modules ${before.by} and ${module.name})`);
      filled.set(point, { by: module.name, implementation });
    }
  const offered = new Set<string>();
  for (const module of modules)
    for (const [point, plug] of Object.entries(module.offers ?? {})) {
      offered.add(point);
      const fill = filled.get(point);
      if (fill) (plug as (services: Services, implementation: unknown) => void)(services, fill.implementation);
    }
  for (const [point, { by }] of filled)
    if (!offered.has(point)) throw new Error(`extension point ${point} is filled by module ${by} but offered by none`);
}

/** The background work of every module: listeners, jobs, and the secrets of delivery subscribers. */
export function backgroundOf<Deps, Services, DB, M extends EventMap<M>>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the modules' routes and points vary
  modules: readonly ServiceModule<Deps, Services, DB, M, any>[],
  context: Omit<ModuleContext<Deps, Services>, 'declared'>,
): {
  declared: Declared<keyof M & string>;
  listeners: EventListener<DB, M>[];
  jobs: JobDefinition[];
  secretOf: (delivery: { subscriber_type: string; subscriber_id: number }) => Promise<string | null>;
} {
  const declared = declaredBy<keyof M & string>(modules);
  const full = { ...context, declared };
  const secrets = new Map<string, SubscriberSecret>();
  for (const module of modules)
    for (const [type, secret] of Object.entries(module.subscribers?.(context.services) ?? {})) {
      if (secrets.has(type)) throw new Error(`subscriber type ${type} is declared twice (module ${module.name})`);
      secrets.set(type, secret);
    }
  return {
    declared,
    listeners: modules.flatMap((m) => m.listeners?.(full) ?? []),
    jobs: modules.flatMap((m) => m.jobs?.(full) ?? []),
    // A delivery to a subscriber type no module declares has no secret (it is not signed).
    secretOf: async (delivery) => (await secrets.get(delivery.subscriber_type)?.(delivery.subscriber_id)) ?? null,
  };
}
