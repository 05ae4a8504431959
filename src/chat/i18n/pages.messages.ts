import { defineMessages, type Keys } from '../../core/i18n/catalogue.js';

/**
 * The pages the conversation service's e-mails link to (choosing a password, asking for a new
 * link), and the e-mails themselves. English key -> Brazilian Portuguese (core/i18n/catalogue.ts).
 */
export const chatPageMessages = defineMessages('chat pages and e-mails', {
  // The set-password page.
  'Set your password': 'Defina sua senha',
  'Choose the password of %{email} to start working in %{account}.':
    'Escolha a senha de %{email} para começar a trabalhar em %{account}.',
  'Choose a new password for %{email}.': 'Escolha uma nova senha para %{email}.',
  'your account': 'sua conta',
  Password: 'Senha',
  'At least %{min} characters.': 'Pelo menos %{min} caracteres.',
  'Set my password': 'Definir minha senha',
  'Your password is set': 'Sua senha foi definida',
  'Your password is set. %{signIn} as %{email} with it.': 'Sua senha foi definida. %{signIn} como %{email} com ela.',
  'Sign in': 'Entre',
  'Back to sign in': 'Voltar para o login',
  'Ask for a new link': 'Peça um novo link',
  "The repeated password doesn't match password.": 'A senha repetida não confere com a senha.',
  'The password is too short (minimum is %{min} characters).': 'A senha é curta demais (mínimo de %{min} caracteres).',
  'The password is too long (maximum is %{max} characters).': 'A senha é longa demais (máximo de %{max} caracteres).',

  // Asking for a new link.
  'Forgot your password?': 'Esqueceu sua senha?',
  'Enter the e-mail address you sign in with: a link to choose a new password will be sent to it.':
    'Informe o endereço de e-mail com que você entra: um link para escolher uma nova senha será enviado para ele.',
  'Enter the e-mail address you sign in with.': 'Informe o endereço de e-mail com que você entra.',
  'E-mail': 'E-mail',
  'Send me a link': 'Enviar o link',
  'Check your e-mail': 'Confira seu e-mail',
  'If a user exists for this e-mail, a link to reset its password has been sent to it':
    'Se existir um usuário com este e-mail, um link para redefinir a senha foi enviado para ele',

  // The invitation and reset e-mails.
  'Join %{account} on Ponte': 'Participe de %{account} no Ponte',
  '%{who} added you to %{account} on Ponte as %{role}.': '%{who} adicionou você a %{account} no Ponte como %{role}.',
  'Open this link within 7 days to choose your password:': 'Abra este link em até 7 dias para escolher sua senha:',
  'The link works once. Once it has expired, ask for a new one at %{page}':
    'O link funciona uma vez. Depois que expirar, peça um novo em %{page}',
  'If you did not expect this, ignore this e-mail.': 'Se você não esperava este convite, ignore este e-mail.',
  'Reset your Ponte password': 'Redefina sua senha do Ponte',
  'Someone (hopefully you) asked to reset the password of your Ponte user.':
    'Alguém (esperamos que você) pediu para redefinir a senha do seu usuário do Ponte.',
  'The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.':
    'O link funciona uma vez. Se você não pediu, ignore este e-mail: sua senha continua a mesma.',

  // The e-mail of an automation rule's send_email action.
  'Automation rule "%{rule}" ran on %{event} for conversation #%{id}.':
    'A regra de automação "%{rule}" rodou em %{event} para a conversa #%{id}.',
  'Conversation #%{id}': 'Conversa #%{id}',
  'Conversation #%{id}: %{rule}': 'Conversa #%{id}: %{rule}',
  'Status: %{value}': 'Status: %{value}',
  'Priority: %{value}': 'Prioridade: %{value}',
  'Priority: none': 'Prioridade: nenhuma',
  'Inbox: %{value}': 'Caixa de entrada: %{value}',
  'Contact: %{value}': 'Contato: %{value}',
  'Unnamed contact': 'Contato sem nome',
  unknown: 'desconhecido',
  'Assignee: %{value}': 'Responsável: %{value}',
  'Assignee: none': 'Responsável: ninguém',
  'Team: %{value}': 'Time: %{value}',
  'Team: none': 'Time: nenhum',
  'Labels: %{value}': 'Etiquetas: %{value}',
  'Labels: none': 'Etiquetas: nenhuma',
  'Link: %{value}': 'Link: %{value}',
  'Latest messages:': 'Últimas mensagens:',
  'No messages yet.': 'Ainda não há mensagens.',
  System: 'Sistema',
  '(attachment)': '(anexo)',
});

declare module '../../core/i18n/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this file's keys to the catalogue
  interface Messages extends Keys<typeof chatPageMessages> {}
}
