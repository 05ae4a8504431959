import type { ChatMessage } from './openai.client.js';
import type { AssistantEvent } from './integrations.schema.js';

/** One message of a conversation as the assistant sees it: who said it and what. */
export interface TranscriptLine {
  from: 'customer' | 'agent';
  content: string;
}

const AGENT = 'You are a helpful customer support agent.';
const ANSWER_ONLY = 'Answer with the resulting text only, without quotes or explanations.';
const SAME_LANGUAGE = 'Write in the language of the text.';

/** What each text event asks for; the text goes as the user message. */
const REWRITES: Record<Exclude<AssistantEvent, 'reply_suggestion' | 'summarize'>, string> = {
  rephrase: 'Rephrase the following reply so that it reads clearly and naturally, keeping its meaning.',
  fix_spelling_grammar:
    'Fix the spelling and grammar of the following reply. Keep its meaning, tone and formatting; change nothing else.',
  shorten: 'Make the following reply shorter, keeping everything it must say.',
  expand: 'Expand the following reply into a fuller answer, without inventing facts, offers or promises.',
  make_friendly: 'Rewrite the following reply in a warmer, friendlier tone, keeping its meaning.',
  make_formal: 'Rewrite the following reply in a more formal, professional tone, keeping its meaning.',
  simplify: 'Rewrite the following reply in simpler words and shorter sentences, keeping its meaning.',
};

export function rewriteMessages(event: keyof typeof REWRITES, content: string): ChatMessage[] {
  return [
    { role: 'system', content: `${AGENT} ${REWRITES[event]} ${SAME_LANGUAGE} ${ANSWER_ONLY}` },
    { role: 'user', content },
  ];
}

/**
 * The agent's next reply: the conversation as alternating turns (the customer as `user`, the agents
 * as `assistant`), as chat models are trained to continue it.
 */
export function replySuggestionMessages(lines: TranscriptLine[]): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `${AGENT} Write the agent's next reply to the customer in the conversation that follows. ` +
        "Use the customer's language, be concise and helpful, and do not invent facts, prices or policies. " +
        ANSWER_ONLY,
    },
    ...lines.map((l): ChatMessage => ({ role: l.from === 'customer' ? 'user' : 'assistant', content: l.content })),
  ];
}

/** A summary for an agent taking the conversation over: the transcript as one text. */
export function summaryMessages(lines: TranscriptLine[]): ChatMessage[] {
  const transcript = lines.map((l) => `${l.from === 'customer' ? 'Customer' : 'Agent'}: ${l.content}`).join('\n');
  return [
    {
      role: 'system',
      content:
        'Summarize the following support conversation for an agent who takes it over: what the customer ' +
        'wants, what has been done or promised, and what is still open. Be brief; use short bullet points. ' +
        'Write in the language of the conversation.',
    },
    { role: 'user', content: transcript },
  ];
}
