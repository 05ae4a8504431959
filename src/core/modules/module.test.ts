import { describe, expect, it } from 'vitest';
import { backgroundOf, buildServices, collectMigrations, type ServiceModule } from './module.js';

type Services = { greeter?: { hello(): string }; shouter?: { shout(): string } };
type Module = ServiceModule<{ name: string }, Services, unknown, { ping: { refs: object; snapshot: object } }, string>;

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
});
