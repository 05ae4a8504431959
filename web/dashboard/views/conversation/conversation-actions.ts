import { useI18n } from 'vue-i18n';
import type { Agent, ConversationStatus, Priority, Team } from '../../api.js';
import { errorSentence } from '../../errors.js';
import { useConversationStore, type ConversationChange } from '../../stores/conversation.store.js';
import { useNoticesStore } from '../../stores/notices.store.js';

/**
 * The changes an agent makes to the open conversation, each confirmed or refused in a notice (the
 * store shows the change at once and undoes it on a refusal).
 */
export function useConversationActions() {
  const { t } = useI18n();
  const store = useConversationStore();
  const notices = useNoticesStore();

  async function run(change: ConversationChange, done: string) {
    const refused = await store.change(change);
    if (refused) notices.notify('error', t('conversation.actionFailed', { reason: errorSentence(refused) }));
    else notices.notify('success', done);
  }

  return {
    setStatus: (status: ConversationStatus, snoozedUntil: number | null = null) =>
      run({ kind: 'status', status, snoozedUntil }, t(`conversation.statusSet.${status}`)),
    assign: (agent: Agent | null) =>
      run(
        { kind: 'assignee', agent },
        agent ? t('conversation.assigned', { name: agent.available_name || agent.name }) : t('conversation.unassigned'),
      ),
    assignTeam: (team: Team | null) =>
      run(
        { kind: 'team', team },
        team ? t('conversation.teamAssigned', { name: team.name }) : t('conversation.teamRemoved'),
      ),
    setPriority: (priority: Priority) =>
      run({ kind: 'priority', priority }, t('conversation.prioritySet', { priority: t(`priority.${priority}`) })),
    setLabels: (labels: string[]) => run({ kind: 'labels', labels }, t('conversation.labelsSaved')),
  };
}
