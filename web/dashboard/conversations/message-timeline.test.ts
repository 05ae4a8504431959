import { describe, expect, it } from 'vitest';
import {
  enqueue,
  receive,
  updatePending,
  type PendingMessage,
  type Timeline,
  type TimelineMessage,
} from './message-timeline.js';

const msg = (id: number, echo: string | null = null): TimelineMessage => ({ id, echo_id: echo, created_at: id });
const pending = (echoId: string): PendingMessage => ({
  echoId,
  content: 'hello',
  private: false,
  files: [],
  progress: 0,
  state: 'sending',
  createdAt: 0,
});
const empty: Timeline<TimelineMessage> = { messages: [], pending: [] };

describe('the timeline of the open conversation', () => {
  it('keeps messages in id order whatever order they arrive in, each once', () => {
    let t = receive(empty, [msg(3), msg(1)]);
    t = receive(t, [msg(2), msg(3)]);
    expect(t.messages.map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it('shows a sent message once when the answer comes before the realtime echo', () => {
    let t = enqueue(empty, pending('e1'));
    expect(t.pending).toHaveLength(1);
    t = receive(t, [msg(10, 'e1')]); // the POST's answer
    t = receive(t, [msg(10, 'e1')]); // the pushed echo
    expect(t.messages).toHaveLength(1);
    expect(t.pending).toHaveLength(0);
  });

  it('shows a sent message once when the echo comes before the answer', () => {
    let t = enqueue(empty, pending('e1'));
    t = receive(t, [msg(10, 'e1')]); // the echo
    t = enqueue(t, pending('e1')); // a late retry of the same message does not queue it again
    t = updatePending(t, 'e1', { progress: 1 }); // a late progress report changes nothing
    t = receive(t, [msg(10, 'e1')]); // the answer
    expect(t.messages.map((m) => m.id)).toEqual([10]);
    expect(t.pending).toEqual([]);
  });

  it('confirms only the message whose echo id came back', () => {
    let t = enqueue(enqueue(empty, pending('a')), pending('b'));
    t = receive(t, [msg(5, 'b'), msg(4)]);
    expect(t.pending.map((p) => p.echoId)).toEqual(['a']);
    t = updatePending(t, 'a', { state: 'failed', error: 'no' });
    expect(t.pending[0]).toMatchObject({ state: 'failed', error: 'no' });
  });
});
