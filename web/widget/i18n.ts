import { browserLanguage, type Language } from '../shared/i18n/language.js';
import { widgetLanguage } from '../shared/widget/protocol.js';

/**
 * The widget's words, English and Brazilian Portuguese: one typed dictionary (a missing key in
 * pt-BR fails the type check), no i18n library. The language is the host's `chatwootSettings.locale`
 * or `setLocale`, else the browser's.
 */
const en = {
  online: 'We are here to help',
  away: 'We are away right now',
  typicalReply: 'Ask us anything, we will reply here.',
  close: 'Close chat',
  messages: 'Messages',
  placeholder: 'Type your message…',
  messageLabel: 'Your message',
  send: 'Send',
  sending: 'Sending…',
  failed: 'Not sent. Try again.',
  retry: 'Retry',
  you: 'You',
  loading: 'Loading…',
  chat: 'Chat',
  unreachable: 'The chat cannot be reached. Check your connection and try again.',
  notFound: 'This chat is not available.',
  identityRefused: 'Your identity could not be verified.',
  ended: 'This conversation has ended. Send a message to start a new one.',
  poweredBy: 'Chat by Ponte',
  image: 'Image sent in the chat',
  file: 'Download the file',
};

export type Words = typeof en;

const ptBR: Words = {
  online: 'Estamos aqui para ajudar',
  away: 'Estamos ausentes agora',
  typicalReply: 'Pergunte o que quiser, respondemos por aqui.',
  close: 'Fechar o chat',
  messages: 'Mensagens',
  placeholder: 'Digite sua mensagem…',
  messageLabel: 'Sua mensagem',
  send: 'Enviar',
  sending: 'Enviando…',
  failed: 'Não enviada. Tente de novo.',
  retry: 'Tentar de novo',
  you: 'Você',
  loading: 'Carregando…',
  chat: 'Chat',
  unreachable: 'Não foi possível conectar ao chat. Verifique sua conexão e tente de novo.',
  notFound: 'Este chat não está disponível.',
  identityRefused: 'Não foi possível verificar sua identidade.',
  ended: 'Esta conversa foi encerrada. Envie uma mensagem para começar outra.',
  poweredBy: 'Chat por Ponte',
  image: 'Imagem enviada no chat',
  file: 'Baixar o arquivo',
};

export const DICTIONARY: Record<Language, Words> = { en, 'pt-BR': ptBR };

/** The host's choice when it names a language the widget has, else the browser's. */
export const chooseLanguage = (choice: string | null, browserTags: readonly string[]): Language =>
  widgetLanguage(choice) ?? browserLanguage(browserTags);

/** A time of day in the language (messages of today), or a short date and time. */
export function messageTime(unixSeconds: number, language: Language, now = new Date()): string {
  const at = new Date(unixSeconds * 1000);
  const sameDay = at.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(
    language,
    sameDay ? { timeStyle: 'short' } : { dateStyle: 'short', timeStyle: 'short' },
  ).format(at);
}
