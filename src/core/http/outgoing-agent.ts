import type { Agent, fetch } from 'undici';

/** undici's fetch with a connection pool of its own. */
export interface OutgoingClient {
  agent: Agent;
  fetch: typeof fetch;
}

/**
 * A connection pool for outgoing calls (webhooks, integrations), with undici loaded on the first
 * call: a process that sends none does not pay for loading it at start.
 */
export class LazyAgent {
  #client: Promise<OutgoingClient> | undefined;

  constructor(private readonly options: Agent.Options) {}

  client(): Promise<OutgoingClient> {
    this.#client ??= import('undici').then(({ Agent, fetch }) => ({ agent: new Agent(this.options), fetch }));
    return this.#client;
  }

  /** Closes the pool if it was ever opened. */
  async close(): Promise<void> {
    if (this.#client) await (await this.#client).agent.close();
  }
}
