import { afterEach, describe, expect, it } from 'vitest';
import {
  allOf,
  alternatives,
  defineWords,
  english,
  formatHtml,
  Html,
  isMessageKey,
  render,
  setTextMarker,
  t,
  type MessageKey,
} from './catalogue.js';
import { escapeHtml } from '../http/pages.js';
import './core.messages.js';

// The catalogue renders a key in English (the key itself, its placeholders filled) or in Brazilian
// Portuguese; parameters are data, other messages (in the same language) or lists of messages.
afterEach(() => setTextMarker(null));

describe('the catalogue', () => {
  it('renders a key and its parameters in English and in Portuguese', () => {
    const text = t('At most %{max} attachments per request', { max: 10 });
    expect(render(text, 'en')).toBe('At most 10 attachments per request');
    expect(render(text, 'pt-BR')).toBe('No máximo 10 anexos por requisição');
    expect(render('Resource not found', 'pt-BR')).toBe('Recurso não encontrado');
    expect(english(text)).toBe('At most 10 attachments per request');
  });

  it('renders nested messages in the same language, and lists of them joined by "; "', () => {
    const problems = [
      t('%{field} %{problem}', { field: 'email', problem: t('is required') }),
      t('%{field} %{problem}', { field: 'name', problem: t("can't be blank") }),
    ];
    const text = t('Invalid request: %{problems}', { problems });
    expect(render(text, 'en')).toBe("Invalid request: email is required; name can't be blank");
    expect(render(text, 'pt-BR')).toBe('Requisição inválida: email é obrigatório; name não pode ficar em branco');
  });

  it('joins alternatives and conjunctions in each language', () => {
    expect(render(t('is %{status}', { status: alternatives(['open', 'paid', 'late']) }), 'en')).toBe(
      'is open or paid or late',
    );
    expect(render(t('%{fields} are required', { fields: allOf(['since', 'until']) }), 'pt-BR')).toBe(
      'since e until são obrigatórios',
    );
  });

  it('escapes the sentence and its data as HTML, but not markup given as Html', () => {
    const text = t('Unsupported attachment "%{file}" (%{type}): supported are %{formats}', {
      file: '<b>x</b>',
      type: new Html('<em>image/x</em>'),
      formats: t('no type'),
    });
    expect(formatHtml(text, 'en', escapeHtml)).toBe(
      'Unsupported attachment &quot;&lt;b&gt;x&lt;/b&gt;&quot; (<em>image/x</em>): supported are no type',
    );
  });

  it('falls back to the English of a key it has no translation for', () => {
    const unknown = 'A sentence nobody catalogued' as MessageKey;
    expect(isMessageKey(unknown)).toBe(false);
    expect(render(unknown as never, 'pt-BR')).toBe('A sentence nobody catalogued');
  });

  it('marks every rendered text while a marker is set, never the English of logs', () => {
    setTextMarker((s) => `[${s}]`);
    expect(render(t('is %{status}', { status: t('no type') }), 'pt-BR')).toBe('[é [sem tipo]]');
    expect(english('Resource not found')).toBe('Resource not found');
  });

  it('gives a word table in a language, English for one it lacks, and marks its words', () => {
    const words = defineWords('test words', {
      en: { title: 'Report', count: (n: number) => `${n} rows` },
      'pt-BR': { title: 'Relatório', count: (n: number) => `${n} linhas` },
    });
    expect(words('pt-BR').count(2)).toBe('2 linhas');
    expect(words('de').title).toBe('Report');
    setTextMarker((s) => `[${s}]`);
    expect(words('pt-BR').title).toBe('[Relatório]');
    expect(words('pt-BR').count(3)).toBe('[3 linhas]');
  });
});
