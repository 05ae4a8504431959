import { conflict, invalidField, notFound } from '../../../core/http/errors.js';
import { assertStaff, type AccountContext, type ChatDeps, type Q } from '../../context.js';
import type { CannedResponse } from './canned-responses.migration.js';
import * as repo from './canned-responses.repository.js';
import type { CannedResponseBody, CannedResponseListQuery, CannedResponsePatch } from './canned-responses.schema.js';

/** A short code as stored: trimmed, non-empty, without whitespace anywhere (422 otherwise). */
function cleanShortCode(raw: string): string {
  const code = raw.trim();
  if (code === '') throw invalidField('short_code', "can't be blank");
  if (/\s/u.test(code)) throw invalidField('short_code', 'must not contain spaces');
  return code;
}

function cleanContent(raw: string): string {
  if (raw.trim() === '') throw invalidField('content', "can't be blank");
  return raw;
}

const duplicate = () =>
  conflict('A canned response with this short code already exists in this account', [
    { field: 'short_code', message: 'has already been taken' },
  ]);

/**
 * Canned responses: texts an agent inserts by short code. Every member of the account reads and
 * manages them (decisions §10); short codes are unique in the account regardless of case (409).
 */
export class CannedResponsesService {
  constructor(private readonly deps: ChatDeps) {}

  list(ctx: AccountContext, query: CannedResponseListQuery): Promise<CannedResponse[]> {
    assertStaff(ctx);
    const search = query.search?.trim();
    return repo.listCannedResponses(this.deps.db, this.deps.dialect, ctx.accountId, search || undefined);
  }

  async create(ctx: AccountContext, body: CannedResponseBody): Promise<CannedResponse> {
    assertStaff(ctx);
    const shortCode = cleanShortCode(body.short_code);
    const content = cleanContent(body.content);
    return this.deps.db.transaction().execute(async (trx) => {
      if (await repo.findByShortCode(trx, ctx.accountId, shortCode)) throw duplicate();
      const now = Date.now();
      return repo.insertCannedResponse(trx, {
        account_id: ctx.accountId,
        short_code: shortCode,
        content,
        created_at: now,
        updated_at: now,
      });
    });
  }

  async update(ctx: AccountContext, id: number, body: CannedResponsePatch): Promise<CannedResponse> {
    assertStaff(ctx);
    const shortCode = body.short_code === undefined ? undefined : cleanShortCode(body.short_code);
    const content = body.content === undefined ? undefined : cleanContent(body.content);
    return this.deps.db.transaction().execute(async (trx) => {
      const current = await this.find(trx, ctx.accountId, id);
      if (shortCode !== undefined) {
        const other = await repo.findByShortCode(trx, ctx.accountId, shortCode);
        if (other && other.id !== current.id) throw duplicate();
      }
      if (shortCode === undefined && content === undefined) return current;
      return repo.updateCannedResponse(trx, ctx.accountId, id, {
        short_code: shortCode,
        content,
        updated_at: Date.now(),
      });
    });
  }

  async delete(ctx: AccountContext, id: number): Promise<void> {
    assertStaff(ctx);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.find(trx, ctx.accountId, id);
      await repo.deleteCannedResponse(trx, ctx.accountId, id);
    });
  }

  private async find(q: Q, accountId: number, id: number): Promise<CannedResponse> {
    const row = await repo.findCannedResponse(q, accountId, id);
    if (!row) throw notFound('Canned response');
    return row;
  }
}
