import { describe, expect, it } from 'vitest';
import { backgroundOf, buildServices, collectMigrations, declaredBy, type ServiceModule } from './module.js';

type Services = { greeter?: { hello(): string }; shouter?: { shout(): string } };
type Events = { ping: { refs: object; snapshot: object }; pong: { refs: object; snapshot: object } };
type Module = ServiceModule<{ name: string }, Services, unknown, Events, string>;

const up = async () => undefined;
const greeter: Module = {
  name: 'greeter',
  migrations: { '0002_greeter': { up } },
  services: (deps) => ({ greeter: { hello: () => `hello ${deps.name}` } }),
  routes: ['greeter routes'],
  listeners: () => [{ name: 'greeter-listener', events: ['ping'] }],
  jobs: () => [{ name: 'greeter.tick', schedule: { every: 1000 }, handle: async () => undefined }],
};
// Built after the greeter, so it may use the greeter's service.
const shouter: Module = {
  name: 'shouter',
  migrations: { '0003_shouter': { up }, '0001_base': { up } },
  services: (_deps, built) => ({ shouter: { shout: () => built.greeter!.hello().toUpperCase() } }),
};

describe('service modules', () => {
  it('build services in list order, each seeing the ones before it', () => {
    const services = buildServices({ name: 'ana' }, [greeter, shouter]);
    expect(services.shouter!.shout()).toBe('HELLO ANA');
  });

  it('collect migrations in name order and refuse a name declared twice', () => {
    expect(Object.keys(collectMigrations([greeter, shouter]))).toEqual(['0001_base', '0002_greeter', '0003_shouter']);
    expect(() => collectMigrations([greeter, { name: 'copy', migrations: { '0002_greeter': { up } } }])).toThrow(
      /0002_greeter is declared twice/,
    );
  });

  it("gather every module's listeners and jobs", () => {
    const { listeners, jobs } = backgroundOf([greeter, shouter], {
      deps: { name: 'x' },
      services: {},
      logger: undefined as never,
    });
    expect(listeners.map((l) => l.name)).toEqual(['greeter-listener']);
    expect(jobs.map((j) => j.name)).toEqual(['greeter.tick']);
  });

  it('declare their events together, in list order, and hand them to services and listeners', () => {
    const pinger: Module = {
      name: 'pinger',
      events: { webhooks: ['ping'], webhookAliases: { pinged: 'ping' }, realtime: ['ping'] },
      listeners: ({ declared }) => [{ name: `fan-out of ${declared.webhookEvents.join(',')}`, events: ['ping'] }],
    };
    const ponger: Module = {
      name: 'ponger',
      events: { webhooks: ['pong'] },
      services: (_deps, _built, declared) => ({ greeter: { hello: () => declared.webhookEvents.join(' ') } }),
    };
    const declared = declaredBy([pinger, ponger]);
    expect(declared.webhookEvents).toEqual(['ping', 'pong']);
    expect(declared.webhookAliases).toEqual({ pinged: 'ping' });
    expect([...declared.realtimeEvents]).toEqual(['ping']);
    expect(buildServices({ name: 'x' }, [pinger, ponger]).greeter!.hello()).toBe('ping pong');
    const { listeners } = backgroundOf([pinger, ponger], {
      deps: { name: 'x' },
      services: {},
      logger: undefined as never,
    });
    expect(listeners.map((l) => l.name)).toEqual(['fan-out of ping,pong']);
    // An event or an alias declared by two modules is a startup error.
    expect(() => declaredBy([pinger, { name: 'again', events: { webhooks: ['ping'] } }])).toThrow(
      /ping is declared twice/,
    );
    expect(() => declaredBy([pinger, { name: 'again', events: { webhookAliases: { pinged: 'pong' } } }])).toThrow(
      /alias pinged is declared twice/,
    );
  });

  it("sign each delivery with the secret its subscriber's module declares", async () => {
    const hooks: Module = { name: 'hooks', subscribers: () => ({ webhook: async (id) => `hook-${id}` }) };
    const bots: Module = { name: 'bots', subscribers: () => ({ bot: async (id) => (id === 1 ? 'bot-1' : null) }) };
    const { secretOf } = backgroundOf([hooks, bots], { deps: { name: 'x' }, services: {}, logger: undefined as never });
    expect(await secretOf({ subscriber_type: 'webhook', subscriber_id: 7 })).toBe('hook-7');
    expect(await secretOf({ subscriber_type: 'bot', subscriber_id: 1 })).toBe('bot-1');
    expect(await secretOf({ subscriber_type: 'bot', subscriber_id: 2 })).toBeNull();
    expect(await secretOf({ subscriber_type: 'unknown', subscriber_id: 1 })).toBeNull();
    const twice = () => backgroundOf([hooks, hooks], { deps: { name: 'x' }, services: {}, logger: undefined as never });
    expect(twice).toThrow(/subscriber type webhook is declared twice/);
  });

  it('connect each extension point a module fills to the module that offers it, once every service is built', () => {
    type Points = { greeting: () => string };
    type WithPoints = ServiceModule<{ name: string }, Services, unknown, Events, string, Points>;
    let plugged: (() => string) | undefined;
    const offering: WithPoints = {
      name: 'offering',
      offers: { greeting: (_services, implementation) => (plugged = implementation) },
    };
    // Listed after the offering module, and its service is built after it: plugged in at the end.
    const filling: WithPoints = {
      name: 'filling',
      services: () => ({ greeter: { hello: () => 'hi' } }),
      fills: (services) => ({ greeting: () => services.greeter!.hello() }),
    };
    buildServices({ name: 'x' }, [offering, filling]);
    expect(plugged?.()).toBe('hi');
    expect(() => buildServices({ name: 'x' }, [offering, filling, { ...filling, name: 'again' }])).toThrow(
      /extension point greeting is filled twice \(modules filling and again\)/,
    );
    expect(() => buildServices({ name: 'x' }, [filling])).toThrow(
      /extension point greeting is filled by module filling but offered by none/,
    );
  });
});
