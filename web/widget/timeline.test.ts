import { describe, expect, it } from 'vitest';
import type { PublicMessage } from './api.js';
import { applyPush, fromServer, lastServerId, merge, unreadAfter, type Shown } from './timeline.js';

const message = (fields: Partial<PublicMessage>): PublicMessage => ({
  id: 1,
  content: 'Hi',
  message_type: 0,
  content_type: 'text',
  content_attributes: {},
  created_at: 1000,
  conversation_id: 7,
  echo_id: null,
  sender: null,
  attachments: [],
  ...fields,
});

const sending = (echoId: string, content: string): Shown => ({
  key: echoId,
  id: null,
  echoId,
  content,
  mine: true,
  sender: null,
  createdAt: 5000,
  state: 'sending',
  attachments: [],
});

describe("the widget's messages", () => {
  it("shows the visitor's message once however it comes back (the answer or the channel's echo)", () => {
    let list = [sending('e1', 'Hello')];
    const echo = message({ id: 10, content: 'Hello', echo_id: 'e1', created_at: 2000 });
    const pushed = applyPush(list, 'message.created', echo);
    expect(pushed.added).toBe(false);
    list = pushed.messages;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ key: 'e1', id: 10, state: 'sent' });
    list = merge(list, fromServer(echo));
    expect(list).toHaveLength(1);
    expect(list[0].key).toBe('e1');
  });

  it("adds an agent's reply once, in creation order, pending messages last", () => {
    const agent = message({
      id: 11,
      message_type: 1,
      content: 'How can I help?',
      created_at: 1500,
      sender: { id: 3, name: 'Rui', type: 'user', available_name: 'Rui A.', thumbnail: '' },
    });
    const first = applyPush(
      [fromServer(message({ id: 9, created_at: 1000 })), sending('e2', 'x')],
      'message.created',
      agent,
    );
    expect(first.added).toBe(true);
    expect(first.messages.map((m) => m.id)).toEqual([9, 11, null]);
    expect(first.messages[1]).toMatchObject({ mine: false, sender: 'Rui A.' });
    const again = applyPush(first.messages, 'message.created', agent);
    expect(again.added).toBe(false);
    expect(again.messages).toHaveLength(3);
    const updated = applyPush(again.messages, 'message.updated', { ...agent, content: 'Edited' });
    expect(updated.added).toBe(false);
    expect(updated.messages[1].content).toBe('Edited');
    expect(applyPush(updated.messages, 'conversation.typing_on', agent).messages).toEqual(updated.messages);
  });

  it("counts the agents' messages after the visitor last looked, and knows the newest id", () => {
    const list = [
      fromServer(message({ id: 1, created_at: 100 })),
      fromServer(message({ id: 2, message_type: 1, created_at: 200 })),
      fromServer(message({ id: 3, message_type: 1, created_at: 300 })),
      sending('e', 'later'),
    ];
    expect(unreadAfter(list, 150, null)).toBe(2);
    expect(unreadAfter(list, 250, null)).toBe(1);
    expect(unreadAfter(list, 301, null)).toBe(0);
    // A message of the same second as the look: unread unless this browser showed it.
    expect(unreadAfter(list, 300.4, null)).toBe(1);
    expect(unreadAfter(list, 300.4, 3)).toBe(0);
    expect(unreadAfter(list, 300.4, 2)).toBe(1);
    // Seen elsewhere later than this browser knows: the server's time wins.
    expect(unreadAfter(list, 250, 1)).toBe(1);
    expect(lastServerId(list)).toBe(3);
    expect(lastServerId([sending('e', 'x')])).toBeNull();
  });

  it('keeps what an attachment needs to be shown', () => {
    const shown = fromServer(
      message({
        message_type: 1,
        content: null,
        attachments: [{ id: 4, data_url: 'http://x.test/f.png', file_type: 'image', extension: 'png' }],
      }),
    );
    expect(shown.content).toBe('');
    expect(shown.attachments).toEqual([
      { id: 4, data_url: 'http://x.test/f.png', file_type: 'image', extension: 'png' },
    ]);
  });
});
