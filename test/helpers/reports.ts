import pino from 'pino';
import type { ChatModule } from '../../src/chat/module.types.js';
import { chatDeclared, createChatServices } from '../../src/chat/modules.js';
import type { ChatDeps } from '../../src/chat/context.js';
import type { ChatDatabase } from '../../src/chat/db/schema.js';
import type { ChatEvents } from '../../src/chat/events.js';
import { OutboxDispatcher } from '../../src/core/events/dispatcher.js';
import { JobRunner } from '../../src/core/jobs/jobs.js';
import { createLocalFileStore } from '../../src/core/storage/file-store.js';
import type { ChatTestApp } from './test-app.js';

const logger = pino({ level: 'silent' });

/** An instance's services on the test app's database (as a server process builds them). */
export function servicesOf(t: ChatTestApp) {
  const deps: ChatDeps = {
    db: t.db,
    dialect: t.dialect,
    config: t.config,
    fileStore: createLocalFileStore(t.config.dataDir),
  };
  return { deps, services: createChatServices(deps) };
}

/** A dispatcher running only the listeners of `modules` (tests call `drain()`). */
export function dispatcherOf(t: ChatTestApp, modules: readonly ChatModule[]) {
  const { deps, services } = servicesOf(t);
  const listeners = modules.flatMap((m) => m.listeners?.({ deps, services, logger, declared: chatDeclared }) ?? []);
  return new OutboxDispatcher<ChatDatabase, ChatEvents>({ db: t.db, dialect: t.dialect, logger, listeners });
}

/** A job runner with the jobs of `modules`, on an injected clock (tests call `runDue()`). */
export function jobRunnerOf(t: ChatTestApp, modules: readonly ChatModule[], clock: () => number) {
  const { deps, services } = servicesOf(t);
  const definitions = modules.flatMap((m) => m.jobs?.({ deps, services, logger, declared: chatDeclared }) ?? []);
  return new JobRunner({ db: t.db, dialect: t.dialect, logger, definitions, clock });
}
