import { describe, expect, it } from 'vitest';
import { chatDeclared } from './modules.js';

// The events leave the service as their modules declare them (core/modules/module.ts): this is
// the list a subscription may name (conversation-service.md, Events; docs/spec/decisions.md §7 and §10).
describe("the conversation service's declared events", () => {
  it("are the spec's webhook events, the pipeline's and SLA breaches, with NooviChat's alias", () => {
    expect(chatDeclared.webhookEvents).toEqual([
      'conversation_created',
      'conversation_status_changed',
      'conversation_updated',
      'message_created',
      'message_updated',
      'contact_created',
      'contact_updated',
      'webwidget_triggered',
      'pipeline_card_created',
      'pipeline_card_updated',
      'pipeline_card_moved',
      'pipeline_card_won',
      'pipeline_card_lost',
      'pipeline_card_reopened',
      'pipeline_card_deleted',
      'sla_missed',
    ]);
    expect(chatDeclared.webhookAliases).toEqual({ pipeline_card_stage_changed: 'pipeline_card_moved' });
  });

  it('push the same to /cable, except the widget being opened', () => {
    const pushed = new Set(chatDeclared.webhookEvents.filter((name) => name !== 'webwidget_triggered'));
    expect(chatDeclared.realtimeEvents).toEqual(pushed);
  });
});
