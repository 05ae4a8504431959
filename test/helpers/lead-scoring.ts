import pino from 'pino';
import { expect } from 'vitest';
import { OutboxDispatcher } from '../../src/core/events/dispatcher.js';
import { JobRunner } from '../../src/core/jobs/jobs.js';
import { createLocalFileStore } from '../../src/core/storage/file-store.js';
import type { ChatDeps } from '../../src/chat/context.js';
import type { ChatDatabase } from '../../src/chat/db/schema.js';
import type { ChatEvents } from '../../src/chat/events.js';
import { chatDeclared, createChatServices } from '../../src/chat/modules.js';
import { leadScoringModule } from '../../src/chat/modules/lead-scoring/lead-scoring.module.js';
import { LeadScoringService, type LeadScoringOptions } from '../../src/chat/modules/lead-scoring/lead-score.service.js';
import type { TestAccount } from './factories.js';
import { client } from './http.js';
import type { ChatTestApp } from './test-app.js';

/** Lead scoring as the background runs it, on a test app's database, driven by the test. */

const logger = pino({ level: 'silent' });

export function depsOf(t: ChatTestApp): ChatDeps {
  return { db: t.db, dialect: t.dialect, config: t.config, fileStore: createLocalFileStore(t.config.dataDir) };
}

/** The module's listener behind a dispatcher: `drain()` delivers every recorded event to it. */
export function scoringDispatcher(t: ChatTestApp) {
  const deps = depsOf(t);
  const services = createChatServices(deps);
  const listeners = leadScoringModule.listeners!({ deps, services, logger, declared: chatDeclared });
  const dispatcher = new OutboxDispatcher<ChatDatabase, ChatEvents>({
    db: t.db,
    dialect: t.dialect,
    logger,
    listeners,
  });
  return { dispatcher, listeners, services };
}

/** A job runner with the module's jobs (other batch options when given), on an injected clock. */
export function scoringJobs(t: ChatTestApp, clock: () => number, options: LeadScoringOptions = {}) {
  const deps = depsOf(t);
  const services = createChatServices(deps);
  const scoring = new LeadScoringService(
    deps,
    {
      engine: services.leadScoreEngine,
      pipelineCards: services.pipelineCards,
      pipelineCardScoring: services.pipelineCardScoring,
      pipelineCardReads: services.pipelineCardReads,
      contacts: services.contacts,
    },
    { clock, ...options },
  );
  return {
    runner: new JobRunner({ db: t.db, dialect: t.dialect, logger, definitions: scoring.jobs(), clock }),
    scoring,
  };
}

/** A rule created by the administrator. */
export async function newRule(t: ChatTestApp, account: TestAccount, body: Record<string, unknown>) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/lead_score_rules`, {
    name: `Rule ${body.event_type as string}`,
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; [field: string]: any };
}

/** A card as the API shows it now. */
export async function cardOf(t: ChatTestApp, account: TestAccount, id: number) {
  const res = await client(t.app, account.admin.token).get(`${account.path}/pipeline_cards/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; lead_score: number; lead_score_overridden: boolean; [field: string]: any };
}

/** The card's log rows, oldest first. */
export async function logsOf(t: ChatTestApp, account: TestAccount, cardId: number) {
  const res = await client(t.app, account.admin.token).get(
    `${account.path}/lead_score/logs?pipeline_card_id=${cardId}&per_page=100`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as Record<string, any>[]).reverse();
}
