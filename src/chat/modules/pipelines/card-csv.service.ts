import { csvRows, CsvSyntaxError, parseCsv, readCell, UTF8_BOM } from '../../../core/csv.js';
import { HttpError, unprocessable } from '../../../core/http/errors.js';
import { allOf, t, type Text } from '../../../core/i18n/catalogue.js';
import { parseTimestamp, toIso, utcDate } from '../../../core/time.js';
import { assertStaff, type AccountContext, type ChatDeps } from '../../context.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { ContactsService } from '../contacts/contacts.service.js';
import { fromMinorUnits, normalizeCurrency, toMinorUnits } from './pipeline-cards.money.js';
import type { CardQueries } from './pipeline-cards.queries.js';
import type { CardReferences } from './pipeline-cards.references.js';
import type { CardListQuery } from './pipeline-cards.schema.js';
import type { NewCard, PipelineCardsService } from './pipeline-cards.service.js';
import type { PipelinesService } from './pipelines.service.js';
import type { PipelineStage } from './pipelines.tables.js';

/** The most rows an import takes (decisions/0029); the file itself is limited to 5 MB by the route. */
export const MAX_IMPORT_ROWS = 5000;
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
const EXPORT_PAGE = 500;
const ATTRIBUTE = 'custom_attributes.';

/** The columns an import reads, in the template's order; custom_attributes.<key> columns too. */
export const IMPORT_COLUMNS = [
  'title',
  'value',
  'currency',
  'stage',
  'owner_email',
  'contact_id',
  'contact_email',
  'contact_phone',
  'expected_close_date',
] as const;

/** What an export adds for people (an import ignores these, so an export can be imported again). */
const EXPORT_COLUMNS = [
  'id',
  'title',
  'value',
  'currency',
  'stage',
  'stage_name',
  'pipeline_id',
  'pipeline',
  'status',
  'owner_email',
  'owner_name',
  'contact_id',
  'contact_name',
  'contact_email',
  'contact_phone',
  'expected_close_date',
  'lead_score',
  'created_at',
] as const;

/** One refused row: its number as a spreadsheet shows it (the header is row 1), the column, why. */
export interface RowProblem {
  row: number;
  field: string;
  message: Text;
}

const refused = (problems: RowProblem[], rows: number) =>
  unprocessable(
    t('%{refused} of %{rows} rows are refused; nothing was imported', {
      refused: new Set(problems.map((p) => p.row)).size,
      rows,
    }),
    problems.map((p) => ({ field: `rows.${p.row}.${p.field}`, message: p.message })),
  );

/**
 * Cards as CSV (NooviChat's export, template and import; decisions/0029): UTF-8 with a BOM so that
 * spreadsheets keep accents, formula-safe cells (core/csv.ts). An import checks every row first
 * and then creates all of them in one transaction through the same create as the API (events,
 * timeline, positions), or none.
 */
export class CardCsvService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly services: {
      queries: CardQueries;
      cards: PipelineCardsService;
      pipelines: PipelinesService;
      references: CardReferences;
      agents: AgentsService;
      contacts: ContactsService;
    },
  ) {}

  /** The cards the list would show with these filters (all pages), as CSV. */
  async export(ctx: AccountContext, query: Omit<CardListQuery, 'page' | 'per_page' | 'limit'>): Promise<string> {
    assertStaff(ctx);
    const { queries, agents, contacts } = this.services;
    const owners = new Map((await agents.list(ctx)).map((a) => [a.id, a]));
    const filter = { ...query, page: 1, per_page: EXPORT_PAGE, limit: undefined };
    const rows: Record<string, string | number | null>[] = [];
    const keys = new Set<string>();
    for (let page = 1; ; page++) {
      const { views, total } = await queries.list(ctx, { ...filter, page });
      const contactIds = views.flatMap((v) => (v.card.contact_id === null ? [] : [v.card.contact_id]));
      const people = new Map(
        (await contacts.lookup(this.deps.db, ctx.accountId, { ids: contactIds, emails: [], phones: [] })).map((c) => [
          c.id,
          c,
        ]),
      );
      for (const { card, stage, pipeline, contact } of views) {
        const attributes = JSON.parse(card.custom_attributes || '{}') as Record<string, unknown>;
        Object.keys(attributes).forEach((k) => keys.add(k));
        const owner = card.owner_id === null ? undefined : owners.get(card.owner_id);
        const person = card.contact_id === null ? undefined : people.get(card.contact_id);
        rows.push({
          id: card.id,
          title: card.title,
          value: fromMinorUnits(card.value_minor, card.currency),
          currency: card.currency,
          stage: stage.id,
          stage_name: stage.name,
          pipeline_id: pipeline.id,
          pipeline: pipeline.name,
          status: card.status,
          owner_email: owner?.email ?? null,
          owner_name: owner?.name ?? null,
          contact_id: card.contact_id,
          contact_name: contact?.name ?? null,
          contact_email: person?.email ?? null,
          contact_phone: person?.phone_number ?? null,
          expected_close_date: card.expected_close_date,
          lead_score: card.lead_score,
          created_at: toIso(card.created_at),
          ...Object.fromEntries(
            Object.entries(attributes).map(([k, v]) => [
              `${ATTRIBUTE}${k}`,
              typeof v === 'string' || typeof v === 'number' ? v : v === null ? null : JSON.stringify(v),
            ]),
          ),
        });
      }
      if (page * EXPORT_PAGE >= total) break;
    }
    const header = [...EXPORT_COLUMNS, ...[...keys].sort().map((k) => `${ATTRIBUTE}${k}`)];
    return UTF8_BOM + csvRows([header, ...rows.map((row) => header.map((column) => row[column] ?? null))]);
  }

  /** The header an import reads, as CSV. */
  template(): string {
    return UTF8_BOM + csvRows([[...IMPORT_COLUMNS]]);
  }

  /** Checks every row, then creates every card in one transaction; 422 with every refused row otherwise. */
  async import(ctx: AccountContext, text: string): Promise<number[]> {
    assertStaff(ctx);
    const { header, rows } = this.read(text);
    const cards = await this.check(ctx, header, rows);
    return this.deps.db
      .transaction()
      .execute(async (trx) => (await this.services.cards.createMany(ctx, cards, trx)).map((view) => view.card.id));
  }

  /** The header (lower-cased) and the data rows with their numbers; blank rows are left out. */
  private read(text: string): { header: string[]; rows: { row: number; cells: string[] }[] } {
    let records: string[][];
    try {
      records = parseCsv(text);
    } catch (err) {
      if (!(err instanceof CsvSyntaxError)) throw err;
      const where = { line: err.line, reason: err.message };
      throw new HttpError(422, 'invalid_csv', t('The file is not valid CSV (line %{line}): %{reason}', where), [
        { field: 'file', message: t('is not valid CSV at line %{line}', { line: err.line }) },
      ]);
    }
    const [first, ...rest] = records;
    const header = (first ?? []).map((h) => h.trim().toLowerCase());
    const missing = ['title', 'stage'].filter((column) => !header.includes(column));
    if (missing.length > 0)
      throw unprocessable(
        t('The first row must name the columns; %{columns} missing (see GET .../pipeline/cards/template)', {
          columns: allOf(missing),
        }),
        missing.map((column) => ({ field: `file.${column}`, message: 'is a required column' })),
      );
    const rows = rest
      .map((cells, i) => ({ row: i + 2, cells: cells.map(readCell) }))
      .filter(({ cells }) => cells.some((c) => c.trim() !== ''));
    if (rows.length === 0)
      throw unprocessable('The file has no rows to import', [{ field: 'file', message: 'has no rows' }]);
    if (rows.length > MAX_IMPORT_ROWS)
      throw new HttpError(
        422,
        'too_many_rows',
        t('At most %{max} rows per import; this file has %{rows}', { max: MAX_IMPORT_ROWS, rows: rows.length }),
        [{ field: 'file', message: t('has more than %{max} rows', { max: MAX_IMPORT_ROWS }) }],
      );
    return { header, rows };
  }

  /** Each row as a card to create, once every reference is found; every problem of every row at once. */
  private async check(
    ctx: AccountContext,
    header: string[],
    rows: { row: number; cells: string[] }[],
  ): Promise<NewCard[]> {
    const { pipelines, agents, contacts, references } = this.services;
    const q = this.deps.db;
    const at = (cells: string[], column: string) => {
      const i = header.indexOf(column);
      return i < 0 ? '' : (cells[i] ?? '').trim();
    };
    const stages = new Map<string, PipelineStage>(
      (await pipelines.stagesInListOrder(q, ctx.accountId)).map((s) => [s.key, s]),
    );
    const owners = new Map((await agents.list(ctx)).map((a) => [a.email.toLowerCase(), a]));
    const wanted = { ids: [] as number[], emails: [] as string[], phones: [] as string[] };
    for (const { cells } of rows) {
      const id = at(cells, 'contact_id');
      if (/^\d{1,10}$/.test(id)) wanted.ids.push(Number(id));
      if (at(cells, 'contact_email')) wanted.emails.push(at(cells, 'contact_email'));
      if (at(cells, 'contact_phone')) wanted.phones.push(at(cells, 'contact_phone'));
    }
    const found = await contacts.lookup(q, ctx.accountId, wanted);
    const byId = new Map(found.map((c) => [c.id, c.id]));
    const byEmail = new Map(found.filter((c) => c.email).map((c) => [c.email!.toLowerCase(), c.id]));
    const byPhone = new Map(found.filter((c) => c.phone_number).map((c) => [c.phone_number!.replace(/\D/g, ''), c.id]));
    const defaultCurrency = await references.defaultCurrency(q, ctx.accountId);
    const attributeColumns = header.filter((h) => h.startsWith(ATTRIBUTE) && h.length > ATTRIBUTE.length);

    const problems: RowProblem[] = [];
    const cards: NewCard[] = [];
    for (const { row, cells } of rows) {
      const problem = (field: string, message: Text) => problems.push({ row, field, message });
      const title = at(cells, 'title');
      if (title === '') problem('title', "can't be blank");
      else if (title.length > 255) problem('title', t('must be at most %{max} characters', { max: 255 }));
      const stage = stages.get(at(cells, 'stage'));
      if (!stage) problem('stage', 'must be a stage id of this account, as {pipeline_id}_{slug}');
      const currency = at(cells, 'currency') === '' ? defaultCurrency : normalizeCurrency(at(cells, 'currency'));
      if (!currency) problem('currency', 'is not a known ISO 4217 currency code');
      const valueText = at(cells, 'value') || at(cells, 'expected_revenue');
      const value = valueText === '' || !currency ? undefined : this.amount(valueText, currency, problem);
      const ownerEmail = at(cells, 'owner_email').toLowerCase();
      const owner = ownerEmail === '' ? undefined : owners.get(ownerEmail);
      if (ownerEmail !== '' && !owner) problem('owner_email', 'is not the e-mail of an agent of this account');
      const contactId = this.contactOf(
        at(cells, 'contact_id'),
        at(cells, 'contact_email'),
        at(cells, 'contact_phone'),
        {
          byId,
          byEmail,
          byPhone,
          problem,
        },
      );
      const closeText = at(cells, 'expected_close_date');
      const close = closeText === '' ? undefined : parseTimestamp(closeText);
      if (closeText !== '' && !close) problem('expected_close_date', 'must be a date (YYYY-MM-DD) or an ISO 8601 time');
      const attributes = Object.fromEntries(
        attributeColumns.map((c) => [c.slice(ATTRIBUTE.length), at(cells, c)]).filter(([, v]) => v !== ''),
      );
      if (!stage || !currency || problems.some((p) => p.row === row)) continue;
      cards.push({
        stage,
        title,
        itemTitle: null,
        valueMinor: value === undefined ? 0 : toMinorUnits(value, currency),
        currency,
        contactId: contactId ?? null,
        conversationId: null,
        ownerId: owner?.id ?? null,
        closeDate: close ? utcDate(close.start) : null,
        attributes,
      });
    }
    if (problems.length > 0) throw refused(problems, rows.length);
    return cards;
  }

  /** A decimal amount the currency can hold (1234.56), or a problem on `value`. */
  private amount(text: string, currency: string, problem: (field: string, message: Text) => void) {
    if (!/^\d{1,12}(\.\d+)?$/.test(text)) {
      problem('value', 'must be a decimal number such as 1234.56');
      return undefined;
    }
    try {
      toMinorUnits(text, currency);
      return text;
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      problem('value', err.details?.[0]?.message ?? 'is not a valid amount');
      return undefined;
    }
  }

  /** The row's contact: by id, else e-mail, else phone number; a reference that names nobody is a problem. */
  private contactOf(
    id: string,
    email: string,
    phone: string,
    found: {
      byId: Map<number, number>;
      byEmail: Map<string, number>;
      byPhone: Map<string, number>;
      problem: (field: string, message: Text) => void;
    },
  ): number | undefined {
    if (id !== '') {
      const contact = /^\d{1,10}$/.test(id) ? found.byId.get(Number(id)) : undefined;
      if (contact === undefined) found.problem('contact_id', 'is not a contact of this account');
      return contact;
    }
    if (email !== '') {
      const contact = found.byEmail.get(email.toLowerCase());
      if (contact === undefined) found.problem('contact_email', 'is not the e-mail of a contact of this account');
      return contact;
    }
    if (phone !== '') {
      const contact = found.byPhone.get(phone.replace(/\D/g, ''));
      if (contact === undefined) found.problem('contact_phone', 'is not the phone number of a contact of this account');
      return contact;
    }
    return undefined;
  }
}
