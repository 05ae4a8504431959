import { defineMessages, type Keys } from '../../core/i18n/catalogue.js';

/**
 * The finance service's refusals (API error sentences and field problems), English key ->
 * Brazilian Portuguese (core/i18n/catalogue.ts). Bills are "contas", invoices "faturas", as in the
 * notifications and reports.
 */
export const financeErrorMessages = defineMessages('finance errors', {
  // Signing in, setup, sessions.
  'Missing access token': 'Token de acesso ausente',
  'Invalid or expired access token': 'Token de acesso inválido ou expirado',
  'Invalid or expired refresh token': 'Token de renovação inválido ou expirado',
  'Invalid e-mail or password': 'E-mail ou senha inválidos',
  'This user does not belong to any account': 'Este usuário não pertence a nenhuma conta',
  'The service is already set up': 'O serviço já está configurado',
  'A setup token is required (setupToken or X-Setup-Token)':
    'É necessário um token de configuração (setupToken ou X-Setup-Token)',
  'The setup token is not valid': 'O token de configuração não é válido',
  'Self-registration is closed on this server; ask an administrator for an invitation':
    'O cadastro próprio está fechado neste servidor; peça um convite a um administrador',
  'The service is not set up yet: create the first user with POST /api/auth/setup':
    'O serviço ainda não está configurado: crie o primeiro usuário com POST /api/auth/setup',
  'A user with this e-mail already exists': 'Já existe um usuário com este e-mail',
  'is already registered': 'já está cadastrado',
  'is incorrect': 'está incorreto',

  // Passwords and invitations.
  'The reset link is invalid, was already used or has expired':
    'O link de redefinição é inválido, já foi usado ou expirou',
  'The invitation link is invalid, was already used, was revoked or has expired':
    'O link do convite é inválido, já foi usado, foi revogado ou expirou',
  'is invalid, used, revoked or expired': 'é inválido, já foi usado, foi revogado ou expirou',
  'This invitation is for an address that already has a user: sign in as that user, then accept it with your access token':
    'Este convite é para um endereço que já tem usuário: entre como esse usuário e aceite-o com seu token de acesso',
  'You are signed in as another user: sign in with the invited e-mail address to accept this invitation':
    'Você entrou como outro usuário: entre com o endereço de e-mail convidado para aceitar este convite',
  'Accepting an invitation never changes the password of an existing user: send it without password (PUT /api/auth/password changes it)':
    'Aceitar um convite nunca muda a senha de um usuário existente: envie-o sem password (PUT /api/auth/password muda a senha)',
  'is not accepted for an existing user': 'não é aceito para um usuário existente',
  'is required: choose the password of your new user (8 characters or more)':
    'é obrigatório: escolha a senha do seu novo usuário (8 caracteres ou mais)',
  'is required to create your user': 'é obrigatório para criar seu usuário',
  'A user with this e-mail address now exists: sign in as that user and accept the invitation again':
    'Agora existe um usuário com este endereço de e-mail: entre como esse usuário e aceite o convite de novo',
  'Administrators can no longer set passwords: members are invited by e-mail and choose their own password when they accept. Send only email and role.':
    'Administradores não definem mais senhas: os membros são convidados por e-mail e escolhem a própria senha ao aceitar. Envie apenas email e role.',
  'is not accepted': 'não é aceito',
  'This address is already a member of the account': 'Este endereço já é membro da conta',
  'is already a member': 'já é membro',
  'The invitation is %{status}': 'O convite está com status %{status}',
  'Invitation not found': 'Convite não encontrado',
  'Member not found': 'Membro não encontrado',

  // Records.
  'Bill not found': 'Conta não encontrada',
  'Invoice not found': 'Fatura não encontrada',
  'Contract not found': 'Contrato não encontrado',
  'Transaction not found': 'Transação não encontrada',
  'Notification not found': 'Notificação não encontrada',
  'must be a decimal number with at most 2 decimal places': 'deve ser um número decimal com no máximo 2 casas decimais',
  'must not be after to': 'não pode ser posterior a to',
  'must not be before startDate': 'não pode ser anterior a startDate',
  'This bill is %{status}: only %{allowed} bills can be paid':
    'Esta conta está com status %{status}: só contas com status %{allowed} podem ser pagas',
  'This bill is %{status}: only %{allowed} bills can be cancelled':
    'Esta conta está com status %{status}: só contas com status %{allowed} podem ser canceladas',
  'This invoice is %{status}: only %{allowed} invoices can be issued':
    'Esta fatura está com status %{status}: só faturas com status %{allowed} podem ser emitidas',
  'This invoice is %{status}: only %{allowed} invoices can be paid':
    'Esta fatura está com status %{status}: só faturas com status %{allowed} podem ser pagas',
  'This invoice is %{status}: only %{allowed} invoices can be cancelled':
    'Esta fatura está com status %{status}: só faturas com status %{allowed} podem ser canceladas',
  'This contract is %{status}: only %{allowed} contracts can be cancelled':
    'Este contrato está com status %{status}: só contratos com status %{allowed} podem ser cancelados',
  'This expense records the payment of bill %{bill}: %{reason}':
    'Esta despesa registra o pagamento da conta %{bill}: %{reason}',
  'its %{fields} follow the bill. Change the bill, or undo the payment with POST /api/bills/%{bill}/cancel':
    '%{fields} acompanham a conta. Altere a conta ou desfaça o pagamento com POST /api/bills/%{bill}/cancel',
  'undo the payment with POST /api/bills/%{bill}/cancel instead (or delete the bill)':
    'desfaça o pagamento com POST /api/bills/%{bill}/cancel (ou exclua a conta)',
  'is set by bill %{bill}': 'é definido pela conta %{bill}',

  // E-mail verification.
  'The verification link is invalid, was already used or has expired':
    'O link de verificação é inválido, já foi usado ou expirou',
  "No server can send the e-mail: save your account's SMTP server (POST /api/email/smtp) or ask the operator to set SMTP_URL":
    'Nenhum servidor pode enviar o e-mail: salve o servidor SMTP da sua conta (POST /api/email/smtp) ou peça ao operador para definir SMTP_URL',
  'Verify your e-mail address before inviting members: follow the link sent to %{email} (POST /api/auth/verify-email/resend sends a new one)':
    'Verifique seu endereço de e-mail antes de convidar membros: siga o link enviado para %{email} (POST /api/auth/verify-email/resend envia um novo)',

  // SMTP and the accountant.
  'SMTP is not configured for this account: save it with POST /api/email/smtp':
    'O SMTP não está configurado para esta conta: salve-o com POST /api/email/smtp',
  'is required on the first save': 'é obrigatório no primeiro salvamento',
  'SMTP configuration not found': 'Configuração de SMTP não encontrada',
  'The SMTP server did not accept the e-mail: %{reason}': 'O servidor SMTP não aceitou o e-mail: %{reason}',
  'The saved SMTP password cannot be decrypted (was FINANCE_ENCRYPTION_KEY changed?): save the SMTP configuration again':
    'A senha SMTP salva não pode ser descriptografada (FINANCE_ENCRYPTION_KEY foi alterada?): salve a configuração de SMTP de novo',
  'The accountant is not configured for this account: save it with POST /api/email/accountant':
    'O contador não está configurado para esta conta: salve-o com POST /api/email/accountant',
  'Accountant configuration not found': 'Configuração do contador não encontrada',
  'must not be a future month': 'não pode ser um mês futuro',
});

declare module '../../core/i18n/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this file's keys to the catalogue
  interface Messages extends Keys<typeof financeErrorMessages> {}
}
