import { describe, expect, it } from 'vitest';
import { renderCampaignMessage, type TemplateSubjects } from './campaigns.template.js';

const subjects: TemplateSubjects = {
  contact: { name: 'Ana Maria Lima', email: 'ana@example.test', phone_number: null },
  agent: { name: 'Bruno', email: 'bruno@example.test' },
};

describe('renderCampaignMessage', () => {
  it('replaces the known variables, with or without spaces inside the braces, in any case', () => {
    expect(
      renderCampaignMessage(
        '{{contact.name}}|{{ contact.email }}|{{contact.phone_number}}|{{AGENT.NAME}}|{{contact.first_name}} {{contact.last_name}}',
        subjects,
      ),
    ).toBe('Ana Maria Lima|ana@example.test||Bruno|Ana Lima');
    expect(renderCampaignMessage('From {{agent.name}}', { ...subjects, agent: null })).toBe('From ');
  });

  it('turns every other {{...}} into nothing and evaluates nothing', () => {
    for (const name of [
      'constructor.constructor',
      'constructor',
      '__proto__',
      'contact.constructor',
      'contact.__proto__.polluted',
      'toString',
      'this',
      "contact.name | append: '!'",
      'process.exit()',
      '7*7',
    ]) {
      expect(renderCampaignMessage(`[{{${name}}}]`, subjects), name).toBe('[]');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps the rest of the text as it is, `$` patterns included', () => {
    expect(renderCampaignMessage("$& $1 {single} {{ }} {{contact.name}}'s", subjects)).toBe(
      "$& $1 {single}  Ana Maria Lima's",
    );
  });
});
