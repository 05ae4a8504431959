/** The loader's few words (the bubble's), in the widget's languages. */
export const LOADER_STRINGS = {
  en: { open: 'Open chat', close: 'Close chat', launcher: 'Chat with us', frame: 'Chat', unread: 'unread messages' },
  'pt-BR': {
    open: 'Abrir o chat',
    close: 'Fechar o chat',
    launcher: 'Fale conosco',
    frame: 'Chat',
    unread: 'mensagens não lidas',
  },
} satisfies Record<'en' | 'pt-BR', Record<string, string>>;

export type LoaderStrings = (typeof LOADER_STRINGS)['en'];
