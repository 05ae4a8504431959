import { HttpError, notFound, unprocessable } from '../../../core/http/errors.js';
import { t } from '../../../core/i18n/catalogue.js';
import { parseJsonObject } from '../../../core/time.js';
import type { AccountContext, ChatDeps, Q, Trx } from '../../context.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { SlaPolicy } from './sla.migration.js';
import * as repo from './sla.repository.js';
import type { SlaPolicyBody, SlaPolicyPatch } from './sla.schema.js';

/** 402: the account's plan lacks SLAs; the sentence says how an operator turns them on. */
export const planRequired = (accountId: number) =>
  new HttpError(
    402,
    'plan_required',
    t(
      'SLA policies are an Enterprise plan feature and account %{account} is not on it. The operator enables it with %{command} or %{request}; DEFAULT_ACCOUNT_PLAN=enterprise gives new accounts every feature',
      {
        account: accountId,
        command: `\`node dist/cli.js chat:set-account --account ${accountId} --plan enterprise\``,
        request: `PATCH /platform/api/v1/accounts/${accountId} {"plan": "enterprise"}`,
      },
    ),
  );

/** The account may use SLAs: its plan is `enterprise` (or its features turn `sla` on), set by the platform interface. */
export async function hasSlaPlan(accounts: AccountsService, q: Q, accountId: number): Promise<boolean> {
  const account = await accounts.find(q, accountId);
  if (!account) return false;
  return account.plan === 'enterprise' || parseJsonObject(account.features).sla === true;
}

const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

/** Recomputes the running deadlines of a policy's applied SLAs after it changed (AppliedSlasService). */
export interface PolicyDeadlines {
  recomputeForPolicy(trx: Trx, policy: SlaPolicy): Promise<number>;
}

/** What an edit must change in the deadlines of applied SLAs: the thresholds and the business-hours flag. */
const DEADLINE_FIELDS = [
  'first_response_time_threshold',
  'next_response_time_threshold',
  'resolution_time_threshold',
  'only_during_business_hours',
] as const;

/** SLA policies of an account (Enterprise plan; administrators write, agents read). */
export class SlaPoliciesService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly accounts: AccountsService,
    private readonly deadlines: PolicyDeadlines,
  ) {}

  async requirePlan(ctx: AccountContext, q: Q = this.deps.db): Promise<void> {
    if (!(await hasSlaPlan(this.accounts, q, ctx.accountId))) throw planRequired(ctx.accountId);
  }

  async list(ctx: AccountContext): Promise<SlaPolicy[]> {
    await this.requirePlan(ctx);
    return repo.listPolicies(this.deps.db, ctx.accountId);
  }

  async get(ctx: AccountContext, id: number, q: Q = this.deps.db): Promise<SlaPolicy> {
    await this.requirePlan(ctx, q);
    const policy = await repo.findPolicy(q, ctx.accountId, id);
    if (!policy) throw notFound('SLA policy');
    return policy;
  }

  async create(ctx: AccountContext, body: SlaPolicyBody): Promise<SlaPolicy> {
    await this.requirePlan(ctx);
    const values = {
      name: cleanName(body.name),
      description: body.description ?? null,
      first_response_time_threshold: body.first_response_time_threshold,
      next_response_time_threshold: body.next_response_time_threshold ?? null,
      resolution_time_threshold: body.resolution_time_threshold ?? null,
      only_during_business_hours: bool(body.only_during_business_hours) ?? 0,
    };
    checkThresholds(values);
    const now = Date.now();
    return repo.insertPolicy(this.deps.db, { account_id: ctx.accountId, ...values, created_at: now, updated_at: now });
  }

  /**
   * Changed thresholds (or business-hours flag) apply to the policy's applied SLAs too, in the same
   * transaction: their running deadlines are recomputed, breaches already recorded stay.
   */
  async update(ctx: AccountContext, id: number, body: SlaPolicyPatch): Promise<SlaPolicy> {
    return this.deps.db.transaction().execute(async (trx) => {
      const current = await this.get(ctx, id, trx);
      const next = {
        name: body.name !== undefined ? cleanName(body.name) : current.name,
        description: body.description !== undefined ? body.description : current.description,
        first_response_time_threshold: body.first_response_time_threshold ?? current.first_response_time_threshold,
        next_response_time_threshold:
          body.next_response_time_threshold !== undefined
            ? body.next_response_time_threshold
            : current.next_response_time_threshold,
        resolution_time_threshold:
          body.resolution_time_threshold !== undefined
            ? body.resolution_time_threshold
            : current.resolution_time_threshold,
        only_during_business_hours: bool(body.only_during_business_hours) ?? current.only_during_business_hours,
      };
      checkThresholds(next);
      const updated = await repo.updatePolicy(trx, ctx.accountId, id, { ...next, updated_at: Date.now() });
      if (!updated) throw notFound('SLA policy');
      if (DEADLINE_FIELDS.some((field) => updated[field] !== current[field]))
        await this.deadlines.recomputeForPolicy(trx, updated);
      return updated;
    });
  }

  /** Deletes the policy and its applied SLAs with their breaches. */
  async delete(ctx: AccountContext, id: number): Promise<void> {
    await this.get(ctx, id);
    await repo.deletePolicy(this.deps.db, ctx.accountId, id);
  }
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw unprocessable("name can't be blank", [{ field: 'name', message: "can't be blank" }]);
  return trimmed;
}

/** A resolution deadline before the first response's would always be missed first. */
function checkThresholds(p: { first_response_time_threshold: number; resolution_time_threshold: number | null }) {
  if (p.resolution_time_threshold !== null && p.resolution_time_threshold < p.first_response_time_threshold)
    throw unprocessable('resolution_time_threshold must not be shorter than first_response_time_threshold', [
      { field: 'resolution_time_threshold', message: 'must not be shorter than first_response_time_threshold' },
    ]);
}
