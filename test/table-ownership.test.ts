import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatModules } from '../src/chat/modules.js';

/**
 * Every SQL statement on a table is in the module that owns it: the module whose migrations
 * create the table. A module reaches another's data through that module's services (or a read
 * port such as the pipeline's CardReads), never with SQL of its own. The crossings that remain are
 * listed below with the reason each still stands; a new one fails, and so does a listed one that
 * is gone (take it off the list). Read from the sources (the query builder's table names), so it
 * covers code no test reaches.
 */

const CHAT = path.resolve('src/chat');

/** Reads of another module's tables that stand for now (module -> tables), each with its reason. */
const KNOWN_CROSSINGS: Record<string, Record<string, string>> = {
  campaigns: {
    contacts: 'audience selection joins contacts by label in SQL (a contacts read port is to come)',
    inboxes: 'the ongoing campaigns of a website inbox are listed by its token',
  },
  'help-center': { users: "an article's author name" },
  invitations: { accounts: "the account's name and locale in the e-mail", users: 'the invited user' },
  labels: { taggings: "a label's use counts across conversations and contacts (taggings is core's)" },
  'lead-scoring': { pipeline_cards: "report figures read the cards' scores through their index" },
  'pipeline-automations': {
    account_users: 'an assign action checks the agent belongs to the account',
    automation_runs: "the run log both automation engines write (core's, until there is one engine)",
    team_members: 'a round-robin action reads the team',
    pipeline_cards: 'time_in_stage finds the cards idle in a stage',
  },
  pipelines: {
    contacts: 'card pages show contact names',
    conversations: 'and conversation numbers',
    users: 'and owner names',
  },
  reports: { conversations: 'live figures count open conversations', inboxes: 'per inbox', taggings: 'per label' },
  sla: { contacts: 'the SLA list shows the contact', conversations: 'and reads the conversation it applies to' },
};

const walk = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory()
      ? walk(full)
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
        ? [full]
        : [];
  });

const NAMED_MODULES = new Set(chatModules.map((m) => m.name).filter((name) => name !== 'core'));

/** The module a file belongs to: its folder under modules/ when that is a module of the list, else the core module. */
function moduleOf(file: string): string {
  const [top, folder] = path.relative(CHAT, file).split(path.sep);
  return top === 'modules' && folder && NAMED_MODULES.has(folder) ? folder : 'core';
}

const isMigration = (file: string) =>
  /migration/.test(path.basename(file)) || file.includes(`${path.sep}db${path.sep}migrations${path.sep}`);

const CREATES = /\b(?:createTable|table)\(\s*'([a-z_0-9]+)'/g;
const QUERIES =
  /\.(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin)\(\s*'([a-z_0-9]+)(?: as \w+)?'/g;

describe('table ownership (conversation service)', () => {
  it('every statement on a table is in the module that creates it, but for the listed crossings', () => {
    const files = walk(CHAT);
    const owner = new Map<string, string>();
    for (const file of files.filter(isMigration))
      for (const [, table] of fs.readFileSync(file, 'utf8').matchAll(CREATES))
        if (!owner.has(table!)) owner.set(table!, moduleOf(file));
    expect(owner.get('pipeline_cards')).toBe('pipelines');
    expect(owner.get('conversations')).toBe('core');

    const crossings: Record<string, Record<string, string[]>> = {};
    for (const file of files.filter((f) => !isMigration(f))) {
      const module = moduleOf(file);
      for (const [, table] of fs.readFileSync(file, 'utf8').matchAll(QUERIES)) {
        const by = owner.get(table!);
        if (by === undefined || by === module) continue; // core's shared tables (outbox, jobs...) have no chat owner
        ((crossings[module] ??= {})[table!] ??= []).push(path.relative(CHAT, file));
      }
    }
    const found = Object.fromEntries(Object.entries(crossings).map(([m, tables]) => [m, Object.keys(tables).sort()]));
    const known = Object.fromEntries(
      Object.entries(KNOWN_CROSSINGS).map(([m, tables]) => [m, Object.keys(tables).sort()]),
    );
    expect(found, `crossings found (module -> table -> files): ${JSON.stringify(crossings, null, 1)}`).toEqual(known);
  });
});
