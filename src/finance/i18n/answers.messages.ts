import { defineMessages, type Keys } from '../../core/i18n/catalogue.js';

/**
 * The messages of the finance service's successes (`{success: true, data, message}`), written in
 * the request's language. English key -> Brazilian Portuguese (core/i18n/catalogue.ts).
 */
export const financeAnswerMessages = defineMessages('finance answers', {
  // Records (transactions, bills, invoices, contracts).
  'Transaction created': 'Transação criada',
  'Transaction updated': 'Transação atualizada',
  'Transaction deleted': 'Transação excluída',
  'Bill created': 'Conta criada',
  'Bill updated': 'Conta atualizada',
  'Bill deleted': 'Conta excluída',
  'Bill paid': 'Conta paga',
  'Bill cancelled': 'Conta cancelada',
  'Invoice created': 'Fatura criada',
  'Invoice updated': 'Fatura atualizada',
  'Invoice deleted': 'Fatura excluída',
  'Invoice issued': 'Fatura emitida',
  'Invoice paid': 'Fatura paga',
  'Invoice cancelled': 'Fatura cancelada',
  'Contract created': 'Contrato criado',
  'Contract updated': 'Contrato atualizado',
  'Contract deleted': 'Contrato excluído',
  'Contract cancelled': 'Contrato cancelado',

  // Identity, members and invitations.
  'Setup complete': 'Configuração concluída',
  Registered: 'Cadastro realizado',
  'If an account exists for this e-mail, a link to reset the password has been sent to it':
    'Se existir uma conta com este e-mail, um link para redefinir a senha foi enviado para ele',
  'Password reset: sign in with the new password': 'Senha redefinida: entre com a nova senha',
  'Member removed': 'Membro removido',
  'Invitation sent to %{email}': 'Convite enviado para %{email}',
  'Invitation renewed and sent again to %{email}': 'Convite renovado e enviado de novo para %{email}',
  'Invitation sent again to %{email}': 'Convite enviado de novo para %{email}',
  'Invitation revoked': 'Convite revogado',
  'Invitation accepted': 'Convite aceito',

  'E-mail address %{email} verified': 'Endereço de e-mail %{email} verificado',
  '%{email} is already verified': '%{email} já está verificado',
  'A verification link was sent to %{email}': 'Um link de verificação foi enviado para %{email}',

  // Notifications.
  'All notifications marked as read': 'Todas as notificações foram marcadas como lidas',
  '%{count} read notification(s) deleted': '%{count} notificação(ões) lida(s) excluída(s)',
  'Preferences saved': 'Preferências salvas',
  'Daily job run for this account': 'Rotina diária executada para esta conta',
  'Notification marked as read': 'Notificação marcada como lida',
  'Notification deleted': 'Notificação excluída',

  // SMTP, the accountant and webhooks.
  'SMTP is not configured': 'O SMTP não está configurado',
  'SMTP configuration saved': 'Configuração de SMTP salva',
  'SMTP configuration removed': 'Configuração de SMTP removida',
  'Test e-mail sent to %{email}: %{response}': 'E-mail de teste enviado para %{email}: %{response}',
  'The accountant is not configured': 'O contador não está configurado',
  'Accountant configuration saved': 'Configuração do contador salva',
  'Accountant configuration removed': 'Configuração do contador removida',
  'Report for %{month} sent to %{email}': 'Relatório de %{month} enviado para %{email}',
  'Webhook registered: keep the secret, it is not shown again':
    'Webhook cadastrado: guarde o segredo, ele não é mostrado de novo',
  'Webhook updated': 'Webhook atualizado',
  'Webhook deleted': 'Webhook excluído',
});

declare module '../../core/i18n/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this file's keys to the catalogue
  interface Messages extends Keys<typeof financeAnswerMessages> {}
}
