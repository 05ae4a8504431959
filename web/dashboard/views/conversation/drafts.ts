/** Unsent drafts per conversation, kept while the app is open (switching conversations loses nothing). */
export interface Draft {
  text: string;
  private: boolean;
}

const kept = new Map<number, Draft>();

export const drafts = {
  get: (conversationId: number): Draft => kept.get(conversationId) ?? { text: '', private: false },
  set(conversationId: number, draft: Draft): void {
    if (draft.text === '' && !draft.private) kept.delete(conversationId);
    else kept.set(conversationId, draft);
  },
  clear: (conversationId: number): void => {
    const draft = kept.get(conversationId);
    if (draft) kept.set(conversationId, { text: '', private: draft.private });
  },
};
