import { defineMessages, type Keys } from '../../core/i18n/catalogue.js';

/**
 * The sales pipeline, lead scoring, reports and SLA. A pipeline is a "funil", its cards stay
 * "cards". English key -> Brazilian Portuguese (core/i18n/catalogue.ts).
 */
export const chatPipelineMessages = defineMessages('chat pipelines', {
  // Pipelines and cards.
  'Pipeline not found': 'Funil não encontrado',
  'Pipeline card not found': 'Card do funil não encontrado',
  'Pipeline cards not found: %{ids}': 'Cards do funil não encontrados: %{ids}',
  'Attachment not found': 'Anexo não encontrado',
  'Owner not found': 'Responsável não encontrado',
  'The card is not discarded': 'O card não está descartado',
  'is not a known ISO 4217 currency code': 'não é um código de moeda ISO 4217 conhecido',
  'is not set': 'não está definido',
  'is required (or item_ids)': 'é obrigatório (ou item_ids)',
  'is required: send the file in the part named file': 'é obrigatório: envie o arquivo na parte chamada file',
  'lists a card more than once': 'lista um card mais de uma vez',
  'must all be cards of one stage': 'devem ser todos cards de uma mesma etapa',
  'must be a number of at least 0': 'deve ser um número maior ou igual a 0',
  'must be a stage id of this account, as {pipeline_id}_{slug}':
    'deve ser o id de uma etapa desta conta, como {pipeline_id}_{slug}',
  'must be a stage of pipeline %{pipeline}, as {pipeline_id}_{slug}':
    'deve ser uma etapa do funil %{pipeline}, como {pipeline_id}_{slug}',
  'must be an ISO 8601 date or date-time': 'deve ser uma data ou data e hora ISO 8601',
  'must list every open card of the stage': 'deve listar todos os cards abertos da etapa',
  'card_ids must list every open card of the stage; missing: %{ids}':
    'card_ids deve listar todos os cards abertos da etapa; faltam: %{ids}',
  'lists won or lost cards (%{ids}): only open cards are ordered':
    'lista cards ganhos ou perdidos (%{ids}): só cards abertos são ordenados',
  'The card was moved meanwhile (its stage_version is now %{current}): reload it and try again':
    'O card foi movido enquanto isso (seu stage_version agora é %{current}): recarregue-o e tente de novo',
  'is stale (current stage_version: %{current})': 'está desatualizado (stage_version atual: %{current})',
  'must be a whole number in %{currency}': 'deve ser um número inteiro em %{currency}',
  'has more than %{exponent} decimal places, which %{currency} does not have':
    'tem mais de %{exponent} casas decimais, que %{currency} não tem',
  'Only a won or lost deal can be reopened; this one is %{status}':
    'Só um negócio ganho ou perdido pode ser reaberto; este está com status %{status}',

  // Cards as CSV.
  'is required: send the CSV in the part named file': 'é obrigatório: envie o CSV na parte chamada file',
  '%{refused} of %{rows} rows are refused; nothing was imported':
    '%{refused} de %{rows} linhas foram recusadas; nada foi importado',
  'The file is not valid CSV (line %{line}): %{reason}': 'O arquivo não é um CSV válido (linha %{line}): %{reason}',
  'is not valid CSV at line %{line}': 'não é um CSV válido na linha %{line}',
  'The first row must name the columns; %{columns} missing (see GET .../pipeline/cards/template)':
    'A primeira linha precisa nomear as colunas; falta %{columns} (veja GET .../pipeline/cards/template)',
  'is a required column': 'é uma coluna obrigatória',
  'The file has no rows to import': 'O arquivo não tem linhas para importar',
  'has no rows': 'não tem linhas',
  'At most %{max} rows per import; this file has %{rows}':
    'No máximo %{max} linhas por importação; este arquivo tem %{rows}',
  'has more than %{max} rows': 'tem mais de %{max} linhas',
  'is not the e-mail of an agent of this account': 'não é o e-mail de um agente desta conta',
  'must be a date (YYYY-MM-DD) or an ISO 8601 time': 'deve ser uma data (AAAA-MM-DD) ou um horário ISO 8601',
  'must be a decimal number such as 1234.56': 'deve ser um número decimal como 1234.56',
  'is not a valid amount': 'não é um valor válido',
  'is not a contact of this account': 'não é um contato desta conta',
  'is not the e-mail of a contact of this account': 'não é o e-mail de um contato desta conta',
  'is not the phone number of a contact of this account': 'não é o telefone de um contato desta conta',
  'is required (or lead_score)': 'é obrigatório (ou lead_score)',

  // Lead scoring.
  'Bulk recalculation not found': 'Recálculo em massa não encontrado',
  'Lead score log not found': 'Registro de pontuação de lead não encontrado',
  'Lead score rule not found': 'Regra de pontuação de lead não encontrada',
  'is not allowed (operator and value only)': 'não é permitido (apenas operator e value)',
  'must be an array for in': 'deve ser uma lista para in',
  'must be between -100 and 100': 'deve estar entre -100 e 100',
  'or contact_id is required': 'ou contact_id é obrigatório',
  'is not a known condition key (%{keys})': 'não é uma chave de condição conhecida (%{keys})',
  'must be a number for %{operator}': 'deve ser um número para %{operator}',
  'is too far from since (at most %{max} periods of a %{granularity})':
    'está longe demais de since (no máximo %{max} períodos de %{granularity})',

  // Reports.
  'is required (UNIX seconds)': 'é obrigatório (segundos UNIX)',
  'must not be after until': 'não pode ser posterior a until',
  'until must not be before since': 'until não pode ser anterior a since',
  'id is required for type %{type}': 'id é obrigatório para o tipo %{type}',
  'The range has more than %{max} buckets of group_by %{group}':
    'O intervalo tem mais de %{max} grupos de group_by %{group}',
  'is too far from since for group_by %{group}': 'está longe demais de since para group_by %{group}',

  // SLA.
  'SLA policies are an Enterprise plan feature: the account plan must be enterprise':
    'Políticas de SLA são um recurso do plano Enterprise: o plano da conta precisa ser enterprise',
  'SLA policy not found': 'Política de SLA não encontrada',
  'SLA policies are an Enterprise plan feature and account %{account} is not on it. The operator enables it with %{command} or %{request}; DEFAULT_ACCOUNT_PLAN=enterprise gives new accounts every feature':
    'Políticas de SLA são um recurso do plano Enterprise e a conta %{account} não está nele. O operador o ativa com %{command} ou %{request}; DEFAULT_ACCOUNT_PLAN=enterprise dá todos os recursos às contas novas',
  'end_date must not be before start_date': 'end_date não pode ser anterior a start_date',
  'must be a date (YYYY-MM-DD)': 'deve ser uma data (AAAA-MM-DD)',
  'must not be before start_date': 'não pode ser anterior a start_date',
  'must not be shorter than first_response_time_threshold': 'não pode ser menor que first_response_time_threshold',
  "name can't be blank": 'name não pode ficar em branco',
  'resolution_time_threshold must not be shorter than first_response_time_threshold':
    'resolution_time_threshold não pode ser menor que first_response_time_threshold',
  '%{field} is not a date': '%{field} não é uma data',
});

declare module '../../core/i18n/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this file's keys to the catalogue
  interface Messages extends Keys<typeof chatPipelineMessages> {}
}
