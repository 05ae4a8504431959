import type { Agent, fetch, request } from 'undici';

/** undici's fetch and its lighter `request` (no WHATWG streams), with a connection pool of their own. */
export interface OutgoingClient {
  agent: Agent;
  fetch: typeof fetch;
  request: typeof request;
}

/**
 * A connection pool for outgoing calls (webhooks, integrations), with undici loaded on the first
 * call: a process that sends none does not pay for loading it at start.
 */
export class LazyAgent {
  #client: Promise<OutgoingClient> | undefined;

  constructor(private readonly options: Agent.Options) {}

  client(): Promise<OutgoingClient> {
    this.#client ??= import('undici').then(({ Agent, fetch, request }) => ({
      agent: new Agent(this.options),
      fetch,
      request,
    }));
    return this.#client;
  }

  /** Closes the pool if it was ever opened. */
  async close(): Promise<void> {
    if (this.#client) await (await this.#client).agent.close();
  }
}
