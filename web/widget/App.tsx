import { useEffect, useRef, useState } from 'preact/hooks';
import { isOpenAt } from '../shared/widget/hours.js';
import { DICTIONARY, messageTime, type Words } from './i18n.js';
import type { Session, WidgetState } from './session.js';
import type { Shown } from './timeline.js';

/** The panel: header with the inbox, the conversation (greeting first), the composer. */

function useSession(session: Session): WidgetState {
  const [state, setState] = useState(session.state);
  useEffect(() => session.subscribe(() => setState(session.state)), [session]);
  return state;
}

interface AppProps {
  session: Session;
  /** Opened directly (not in a host page's frame): no close button. */
  standalone: boolean;
  onClose: () => void;
}

export function App({ session, standalone, onClose }: AppProps) {
  const state = useSession(session);
  const w = DICTIONARY[state.language];
  const problem = state.problem ? w[state.problem] : null;
  const away = state.inbox !== null && !isOpenAt(state.inbox, new Date());
  return (
    <main class="panel" aria-label={state.inbox?.name ?? w.chat}>
      <header class="head">
        <div class="avatar" aria-hidden="true">
          {(state.inbox?.name ?? '·').slice(0, 1).toUpperCase()}
        </div>
        <div class="title">
          <h1>{state.inbox?.name ?? w.chat}</h1>
          <p>{away ? w.away : w.online}</p>
        </div>
        {!standalone && (
          <button type="button" class="close" aria-label={w.close} onClick={onClose}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" />
            </svg>
          </button>
        )}
      </header>
      <Conversation session={session} state={state} w={w} away={away} />
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <Composer session={session} w={w} open={state.open || standalone} />
      <footer class="foot">{w.poweredBy}</footer>
    </main>
  );
}

interface ConversationProps {
  session: Session;
  state: WidgetState;
  w: Words;
  /** Outside the inbox's working hours: its away message shows. */
  away: boolean;
}

function Conversation({ session, state, w, away }: ConversationProps) {
  const log = useRef<HTMLDivElement>(null);
  const lastKey = state.messages[state.messages.length - 1]?.key;
  // A newer message (or opening) scrolls to the bottom; older ones loaded on top keep the view still.
  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lastKey, state.open]);
  const heightBefore = useRef(0);
  const firstKey = state.messages[0]?.key;
  useEffect(() => {
    const el = log.current;
    if (el && heightBefore.current) el.scrollTop += el.scrollHeight - heightBefore.current;
    heightBefore.current = 0;
  }, [firstKey]);
  const onScroll = () => {
    const el = log.current;
    if (!el || el.scrollTop > 40 || !state.hasOlder || heightBefore.current) return;
    heightBefore.current = el.scrollHeight;
    void session.loadOlder().then(() => {
      if (session.state.messages[0]?.key === firstKey) heightBefore.current = 0;
    });
  };
  const greeting = state.inbox?.greeting_enabled ? state.inbox.greeting_message : null;
  return (
    <div
      class="log"
      role="log"
      aria-label={w.messages}
      aria-busy={state.loading}
      ref={log}
      tabIndex={0}
      onScroll={onScroll}
    >
      {state.loading ? (
        <p class="intro">{w.loading}</p>
      ) : (
        state.inbox && !state.hasOlder && <p class="intro">{greeting || w.typicalReply}</p>
      )}
      {away && state.inbox?.out_of_office_message && <p class="intro away">{state.inbox.out_of_office_message}</p>}
      {state.messages.map((m) => (
        <Message key={m.key} m={m} w={w} language={state.language} retry={() => void session.send(m.content, m.key)} />
      ))}
      {state.status === 'resolved' && <p class="ended">{w.ended}</p>}
    </div>
  );
}

interface MessageProps {
  m: Shown;
  w: Words;
  language: WidgetState['language'];
  retry: () => void;
}

function Message({ m, w, language, retry }: MessageProps) {
  return (
    <div class={m.mine ? 'msg mine' : 'msg theirs'}>
      {!m.mine && m.sender && <span class="who">{m.sender}</span>}
      {m.content && <p class="bubble">{m.content}</p>}
      {m.attachments.map((a) =>
        a.file_type === 'image' ? (
          <a key={a.id} class="file" href={a.data_url} target="_blank" rel="noopener noreferrer">
            <img src={a.data_url} alt={w.image} />
          </a>
        ) : (
          <a key={a.id} class="file" href={a.data_url} target="_blank" rel="noopener noreferrer">
            {`${w.file}${a.extension ? ` (.${a.extension})` : ''}`}
          </a>
        ),
      )}
      <span class="meta">
        {m.state === 'sending' ? w.sending : m.state === 'failed' ? w.failed : messageTime(m.createdAt, language)}
      </span>
      {m.state === 'failed' && (
        <button type="button" class="retry" onClick={retry}>
          {w.retry}
        </button>
      )}
    </div>
  );
}

function Composer({ session, w, open }: { session: Session; w: Words; open: boolean }) {
  const [text, setText] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (open) field.current?.focus();
  }, [open]);
  const submit = (event?: Event) => {
    event?.preventDefault();
    if (!text.trim()) return;
    void session.send(text);
    setText('');
  };
  return (
    <form class="composer" onSubmit={submit}>
      <textarea
        ref={field}
        rows={1}
        value={text}
        maxLength={150000}
        placeholder={w.placeholder}
        aria-label={w.messageLabel}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) submit(e);
        }}
      />
      <button type="submit" class="send" aria-label={w.send} disabled={!text.trim()}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path d="M4 12l16-8-6 16-2.5-6.5z" fill="currentColor" />
        </svg>
      </button>
    </form>
  );
}
