import { defineMessages, type Keys } from '../../core/i18n/catalogue.js';

/**
 * The pages the finance service's e-mails link to (a new password, accepting an invitation), and
 * the e-mails themselves. English key -> Brazilian Portuguese (core/i18n/catalogue.ts).
 */
export const financePageMessages = defineMessages('finance pages and e-mails', {
  // Choosing a new password.
  'Reset your password': 'Redefina sua senha',
  'This link has no reset token.': 'Este link não tem token de redefinição.',
  'New password': 'Nova senha',
  'Change my password': 'Mudar minha senha',
  'Use at least %{min} characters.': 'Use pelo menos %{min} caracteres.',
  'Password changed': 'Senha alterada',
  'Your password was changed: sign in with it now.': 'Sua senha foi alterada: entre com ela agora.',

  // Accepting an invitation.
  Invitation: 'Convite',
  '%{email} is invited to join %{account} as %{role}.':
    '%{email} recebeu um convite para participar de %{account} como %{role}.',
  'Your name': 'Seu nome',
  'Choose a password': 'Escolha uma senha',
  'You already have a user: confirm with your password.': 'Você já tem um usuário: confirme com sua senha.',
  'Your password': 'Sua senha',
  'Accept the invitation': 'Aceitar o convite',
  'Welcome to %{account}': 'Boas-vindas a %{account}',
  'You joined %{account} as %{role}. Sign in with %{email}.':
    'Você entrou em %{account} como %{role}. Entre com %{email}.',

  // Confirming an e-mail address.
  'Confirm your address': 'Confirme seu endereço',
  'This link has no token.': 'Este link não tem token.',
  'Confirm my e-mail address': 'Confirmar meu endereço de e-mail',
  'Address confirmed': 'Endereço confirmado',
  '%{email} is confirmed. You can now invite members.': '%{email} está confirmado. Agora você pode convidar membros.',

  // The e-mails.
  'Invitation to join %{account}': 'Convite para participar de %{account}',
  'Hello,': 'Olá,',
  '%{who} invited you to join %{account} on Ponte finance as %{role}.':
    '%{who} convidou você para participar de %{account} no Ponte Financeiro como %{role}.',
  'Open this link within 7 days to accept the invitation:': 'Abra este link em até 7 dias para aceitar o convite:',
  'The link works once. If you did not expect this invitation, ignore this e-mail: nothing happens unless you accept it.':
    'O link funciona uma vez. Se você não esperava este convite, ignore este e-mail: nada acontece se você não aceitar.',
  'Someone (hopefully you) asked to reset the password of your account.':
    'Alguém (esperamos que você) pediu para redefinir a senha da sua conta.',
  'If you did not ask for it, ignore this e-mail: your password stays as it is.':
    'Se você não pediu, ignore este e-mail: sua senha continua a mesma.',
  'Confirm your e-mail address': 'Confirme seu endereço de e-mail',
  'Hello %{name},': 'Olá, %{name},',
  'To confirm that this address is yours, open this link within 3 days:':
    'Para confirmar que este endereço é seu, abra este link em até 3 dias:',
  'Once it is confirmed, you can invite members to your account.':
    'Depois de confirmar, você pode convidar membros para a sua conta.',
  'If you did not create an account, ignore this e-mail.': 'Se você não criou uma conta, ignore este e-mail.',
  'Ponte finance: SMTP test': 'Ponte Financeiro: teste de SMTP',
  'This is a test e-mail from the Ponte finance service.': 'Este é um e-mail de teste do serviço Ponte Financeiro.',
  'If you can read it, the SMTP configuration of your account works.':
    'Se você consegue lê-lo, a configuração de SMTP da sua conta funciona.',
});

declare module '../../core/i18n/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this file's keys to the catalogue
  interface Messages extends Keys<typeof financePageMessages> {}
}
