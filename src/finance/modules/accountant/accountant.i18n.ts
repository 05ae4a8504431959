import { defineWords } from '../../../core/i18n/catalogue.js';
import type { Language } from '../../../core/i18n/language.js';
import { centsText } from '../../calendar.js';

/**
 * Every sentence the accountant module writes for an account (the report e-mail, its CSV and the
 * notifications about it), in the account's language (`accounts.locale`). English is the text the
 * report always had, byte for byte; Portuguese formats amounts and month names with Intl.
 */
export interface AccountantWords {
  /** The `lang` of the HTML report. */
  htmlLang: string;
  subject(month: string, referenceMonth: string, account: string): string;
  fileName(referenceMonth: string): string;
  /** '2025-03' -> 'March 2025' / 'março de 2025'. */
  monthLabel(referenceMonth: string): string;
  /** An amount in the body; `currency` is shown beside it where the language does not name it. */
  money(cents: number, currency: string): string;
  /** Whether `money` already names the currency (Intl currency style). */
  moneyNamesCurrency: boolean;
  csvHeader: readonly string[];
  income: string;
  transactions: string;
  expenses: string;
  billsDue: string;
  balance: string;
  currency: string;
  date: string;
  due: string;
  supplier: string;
  description: string;
  category: string;
  status: string;
  amount: string;
  reportTitle: string;
  totalsPerCurrency: string;
  totalsNote: string;
  neverAdded: string;
  account: string;
  period: string;
  range(first: string, last: string): string;
  noTransactionsIn(month: string): string;
  noneThisMonth: string;
  noLists: string;
  firstShown(shown: number, total: number): string;
  cutAt(maxRows: number): string;
  attachedHtml(file: string, lists: boolean): string;
  attachedText(file: string): string;
  paidBillNote: string;
  sentTitle(automatic: boolean): string;
  sentMessage(referenceMonth: string, email: string): string;
  failedTitle: string;
  failedMessage(referenceMonth: string, reason: string): string;
  unexpectedError: string;
}

const EN_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Thousands grouped by a no-break space (neither a dot nor a comma, so no locale misreads it). */
const grouped = (cents: number) => {
  const [whole, fraction] = centsText(cents).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0')}.${fraction}`;
};

const en: AccountantWords = {
  htmlLang: 'en',
  subject: (_month, referenceMonth, account) => `Financial report ${referenceMonth} - ${account}`,
  fileName: (referenceMonth) => `financial-report-${referenceMonth}.csv`,
  monthLabel: (m) => `${EN_MONTHS[Number(m.slice(5, 7)) - 1]} ${m.slice(0, 4)}`,
  money: (cents) => grouped(cents),
  moneyNamesCurrency: false,
  csvHeader: [
    'section',
    'id',
    'date',
    'type',
    'description',
    'category',
    'counterparty',
    'status',
    'amount',
    'currency',
    'bill_id',
  ],
  income: 'Income',
  transactions: 'Transactions',
  expenses: 'Expenses',
  billsDue: 'Bills due in the month',
  balance: 'Balance',
  currency: 'Currency',
  date: 'Date',
  due: 'Due',
  supplier: 'Supplier',
  description: 'Description',
  category: 'Category',
  status: 'Status',
  amount: 'Amount',
  reportTitle: 'Financial report',
  totalsPerCurrency: 'Totals per currency',
  totalsNote:
    'Transactions of the month that are not cancelled. Each currency is totalled on its own; amounts in different currencies are never added together.',
  neverAdded: 'Currencies are never added together.',
  account: 'Account',
  period: 'Period',
  range: (first, last) => `${first} to ${last}`,
  noTransactionsIn: (month) => `No transactions in ${month}.`,
  noneThisMonth: 'None in this month.',
  noLists: 'No lists were requested; the attached CSV has the totals only.',
  firstShown: (shown, total) => `The first ${shown} of ${total} are shown; the attached CSV lists them all.`,
  cutAt: (maxRows) => `The list stops at ${maxRows} rows: there may be more in the month.`,
  attachedHtml: (file, lists) =>
    `Attached: <strong style="color:#111827">${file}</strong> (UTF-8, comma separated) with the totals and every row of ${lists ? 'these lists' : 'the report'}, each once. `,
  attachedText: (file) => `Attached: ${file} (UTF-8, comma separated), every row once.`,
  paidBillNote: 'A paid bill appears among the expenses of the month it was paid in; bills are listed by due date.',
  sentTitle: (automatic) => (automatic ? 'Monthly report sent to the accountant' : 'Report sent to the accountant'),
  sentMessage: (referenceMonth, email) => `Report for ${referenceMonth} sent to ${email}`,
  failedTitle: 'Automatic accountant report not sent',
  failedMessage: (referenceMonth, reason) =>
    `The report for ${referenceMonth} could not be sent to the accountant: ${reason}. It will be tried again on the next daily run.`,
  unexpectedError: 'an unexpected error (see the server log)',
};

const PT_MONTH = new Intl.DateTimeFormat('pt-BR', { month: 'long', timeZone: 'UTC' });

/** R$ 1.234,56; a code Intl does not take as a currency is written after a plain pt-BR number. */
function ptMoney(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('pt-BR', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100)} ${currency}`;
  }
}

const ptBR: AccountantWords = {
  htmlLang: 'pt-BR',
  subject: (month, _referenceMonth, account) => `Relatório financeiro de ${month} - ${account}`,
  fileName: (referenceMonth) => `relatorio-financeiro-${referenceMonth}.csv`,
  monthLabel: (m) => `${PT_MONTH.format(new Date(`${m}-15T00:00:00Z`))} de ${m.slice(0, 4)}`,
  money: ptMoney,
  moneyNamesCurrency: true,
  csvHeader: [
    'secao',
    'id',
    'data',
    'tipo',
    'descricao',
    'categoria',
    'contraparte',
    'situacao',
    'valor',
    'moeda',
    'conta_id',
  ],
  income: 'Receitas',
  transactions: 'Transações',
  expenses: 'Despesas',
  billsDue: 'Contas com vencimento no mês',
  balance: 'Saldo',
  currency: 'Moeda',
  date: 'Data',
  due: 'Vencimento',
  supplier: 'Fornecedor',
  description: 'Descrição',
  category: 'Categoria',
  status: 'Situação',
  amount: 'Valor',
  reportTitle: 'Relatório financeiro',
  totalsPerCurrency: 'Totais por moeda',
  totalsNote:
    'Transações do mês que não foram canceladas. Cada moeda é totalizada separadamente; valores em moedas diferentes nunca são somados.',
  neverAdded: 'Moedas diferentes nunca são somadas.',
  account: 'Conta',
  period: 'Período',
  range: (first, last) => `${first} a ${last}`,
  noTransactionsIn: (month) => `Nenhuma transação em ${month}.`,
  noneThisMonth: 'Nenhum item neste mês.',
  noLists: 'Nenhuma lista foi solicitada; o CSV anexo traz apenas os totais.',
  firstShown: (shown, total) => `São mostrados os primeiros ${shown} de ${total}; o CSV anexo lista todos.`,
  cutAt: (maxRows) => `A lista para em ${maxRows} linhas: pode haver mais no mês.`,
  attachedHtml: (file, lists) =>
    `Anexo: <strong style="color:#111827">${file}</strong> (UTF-8, separado por vírgulas) com os totais e cada linha ${lists ? 'destas listas' : 'do relatório'}, uma vez cada. `,
  attachedText: (file) => `Anexo: ${file} (UTF-8, separado por vírgulas), cada linha uma vez.`,
  paidBillNote: 'Uma conta paga aparece nas despesas do mês em que foi paga; as contas são listadas pelo vencimento.',
  sentTitle: (automatic) => (automatic ? 'Relatório mensal enviado ao contador' : 'Relatório enviado ao contador'),
  sentMessage: (referenceMonth, email) => `Relatório de ${referenceMonth} enviado para ${email}`,
  failedTitle: 'Relatório automático do contador não enviado',
  failedMessage: (referenceMonth, reason) =>
    `Não foi possível enviar ao contador o relatório de ${referenceMonth}: ${reason}. Ele será tentado de novo na próxima execução diária.`,
  unexpectedError: 'um erro inesperado (veja o log do servidor)',
};

/** A word table of the catalogue (core/i18n/catalogue.ts): the completeness test checks both languages. */
export const accountantWords: (language: Language) => AccountantWords = defineWords('accountant report', {
  en,
  'pt-BR': ptBR,
});
