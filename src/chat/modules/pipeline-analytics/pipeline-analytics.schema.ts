import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { IdParam, Nullable } from '../../../core/http/schemas.js';
import { TimestampInput } from '../../../core/http/timestamps.js';
import { DistributionSchema } from '../lead-scoring/lead-score.schema.js';

/** What every analytics request takes (NooviChat's n8n node sends the dates without an offset: UTC). */
export const AnalyticsQuery = Type.Object({
  start_date: Type.Optional(TimestampInput('Start of the period (default: 30 days before end_date)')),
  end_date: Type.Optional(TimestampInput('End of the period, included (default: now)')),
  pipeline_id: Type.Optional(IdParam),
  agent_ids: Type.Optional(
    Type.Array(Type.String({ pattern: '^\\s*\\d{1,10}(\\s*,\\s*\\d{1,10})*\\s*$', maxLength: 2000 }), {
      maxItems: 200,
      description: 'Owners: agent_ids=3,7 (as the n8n node sends them) or agent_ids[]=3&agent_ids[]=7',
    }),
  ),
});
export type AnalyticsQuery = Static<typeof AnalyticsQuery>;

const Period = Type.Object(
  { start_date: Type.String(), end_date: Type.String({ description: 'excluded' }) },
  { description: 'The period read (ISO 8601, UTC)' },
);
const Money = Type.Array(Type.Object({ currency: Type.String(), value: Type.Number() }), {
  description: 'One total per currency (currencies are not converted)',
});
const Rate = Type.Number({ description: 'A percentage with two decimals (0 when there is nothing to divide)' });

const period = { start_date: '2031-08-16T09:00:00.000Z', end_date: '2031-09-15T09:00:00.000Z' };
/** A schema with the example the OpenAPI document shows (validated against it by test/api-docs.test.ts). */
const withExample = <T extends TSchema>(schema: T, example: Static<T>): T => ({ ...schema, examples: [example] });

const WinRateFields = {
  won_deals: Type.Integer(),
  lost_deals: Type.Integer(),
  closed_deals: Type.Integer(),
  win_rate: Rate,
  won_value: Money,
  lost_value: Money,
};
const winRateExample = {
  won_deals: 3,
  lost_deals: 1,
  closed_deals: 4,
  win_rate: 75,
  won_value: [{ currency: 'BRL', value: 4500 }],
  lost_value: [{ currency: 'BRL', value: 800 }],
};
export const WinRateSchema = withExample(Type.Object({ ...WinRateFields, period: Period }), {
  ...winRateExample,
  period,
});

const StageConversion = Type.Object({
  id: Type.String({ description: 'The stage id, {pipeline_id}_{slug}' }),
  name: Type.String(),
  position: Type.Integer({ description: 'From 0' }),
  entered: Type.Integer({
    description: 'Cards that entered the stage in the period (a new card enters its first stage)',
  }),
  converted_to_next: Nullable(Type.Integer({ description: 'Of those, cards that entered the next stage afterwards' })),
  conversion_rate: Nullable(Rate),
});
export const ConversionSchema = withExample(
  Type.Object({
    pipelines: Type.Array(
      Type.Object({ id: Type.Integer(), name: Type.String(), stages: Type.Array(StageConversion) }),
    ),
    period: Period,
  }),
  {
    pipelines: [
      {
        id: 1,
        name: 'Sales',
        stages: [
          { id: '1_lead', name: 'Lead', position: 0, entered: 4, converted_to_next: 3, conversion_rate: 75 },
          { id: '1_proposta', name: 'Proposta', position: 1, entered: 3, converted_to_next: 1, conversion_rate: 33.33 },
          {
            id: '1_fechamento',
            name: 'Fechamento',
            position: 2,
            entered: 1,
            converted_to_next: null,
            conversion_rate: null,
          },
        ],
      },
    ],
    period,
  },
);

const VelocityFields = {
  open_deals: Type.Integer({ description: 'Open deals now (of the pipeline and owners asked for)' }),
  won_deals: Type.Integer(),
  win_rate: Rate,
  average_days_to_win: Type.Number({ description: 'From creation to won, of the deals won in the period' }),
  currencies: Type.Array(
    Type.Object({
      currency: Type.String(),
      open_deals: Type.Integer(),
      won_deals: Type.Integer(),
      average_won_value: Type.Number(),
      velocity_per_day: Type.Number({
        description: '(open deals x average won value x win rate) / average days to win: value per day',
      }),
    }),
  ),
};
const velocityExample = {
  open_deals: 5,
  won_deals: 3,
  win_rate: 75,
  average_days_to_win: 10,
  currencies: [{ currency: 'BRL', open_deals: 5, won_deals: 3, average_won_value: 1500, velocity_per_day: 562.5 }],
};
export const VelocitySchema = withExample(Type.Object({ ...VelocityFields, period: Period }), {
  ...velocityExample,
  period,
});

const Member = Type.Object({
  owner: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()], {
    description: 'null: the unassigned deals',
  }),
  open_deals: Type.Integer(),
  open_value: Money,
  won_deals: Type.Integer(),
  lost_deals: Type.Integer(),
  won_value: Money,
  win_rate: Rate,
});
export const TeamSchema = withExample(
  Type.Object({
    members: Type.Array(Member),
    totals: Type.Object({
      open_deals: Type.Integer(),
      won_deals: Type.Integer(),
      lost_deals: Type.Integer(),
      win_rate: Rate,
    }),
    period: Period,
  }),
  {
    members: [
      {
        owner: { id: 7, name: 'Ana' },
        open_deals: 3,
        open_value: [{ currency: 'BRL', value: 3200 }],
        won_deals: 2,
        lost_deals: 1,
        won_value: [{ currency: 'BRL', value: 3000 }],
        win_rate: 66.67,
      },
      {
        owner: null,
        open_deals: 2,
        open_value: [{ currency: 'BRL', value: 900 }],
        won_deals: 1,
        lost_deals: 0,
        won_value: [{ currency: 'BRL', value: 1500 }],
        win_rate: 100,
      },
    ],
    totals: { open_deals: 5, won_deals: 3, lost_deals: 1, win_rate: 75 },
    period,
  },
);

export const ReasonsSchema = withExample(
  Type.Object({
    reasons: Type.Array(Type.Object({ reason: Type.String(), count: Type.Integer() }), {
      description: 'Distinct lost_reason values of the deals lost in the period, most frequent first',
    }),
    total: Type.Integer(),
    period: Period,
  }),
  {
    reasons: [
      { reason: 'Price', count: 4 },
      { reason: 'Chose a competitor', count: 2 },
    ],
    total: 6,
    period,
  },
);

const PipelineSummary = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  open_deals: Type.Integer(),
  open_value: Money,
  won_deals: Type.Integer(),
  lost_deals: Type.Integer(),
});
export const DashboardSchema = withExample(
  Type.Object({
    win_rate: Type.Object(WinRateFields),
    sales_velocity: Type.Object(VelocityFields),
    lead_distribution: DistributionSchema,
    pipeline_summary: Type.Array(PipelineSummary),
    period: Period,
  }),
  {
    win_rate: winRateExample,
    sales_velocity: velocityExample,
    lead_distribution: {
      ranges: [
        { range: '0-25', count: 2, label: 'Frio' },
        { range: '26-50', count: 1, label: 'Morno' },
        { range: '51-75', count: 1, label: 'Quente' },
        { range: '76-100', count: 1, label: 'Muito Quente' },
      ],
      average_score: 41.2,
      median_score: 30,
      total: 5,
    },
    pipeline_summary: [
      {
        id: 1,
        name: 'Sales',
        open_deals: 5,
        open_value: [{ currency: 'BRL', value: 4100 }],
        won_deals: 3,
        lost_deals: 1,
      },
    ],
    period,
  },
);
