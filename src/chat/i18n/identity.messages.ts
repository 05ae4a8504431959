import { defineMessages, type Keys } from '../../core/i18n/catalogue.js';

/**
 * Who may call and who they are: sign-in, tokens, users, agents, teams, invitations and the
 * public (widget) interface. English key -> Brazilian Portuguese (core/i18n/catalogue.ts).
 */
export const chatIdentityMessages = defineMessages('chat identity', {
  // Tokens and roles.
  'A platform app token is required': 'É necessário um token de aplicativo da plataforma',
  'A user access token is required': 'É necessário um token de acesso de usuário',
  'A user or agent bot access token is required': 'É necessário um token de acesso de usuário ou de bot de agente',
  'Agent bots may not do this': 'Bots de agente não podem fazer isto',
  'Contacts may not do this': 'Contatos não podem fazer isto',
  'Invalid login credentials': 'Credenciais de login inválidas',

  // Users, agents and teams.
  'Email has already been taken': 'O e-mail já está em uso',
  'User not found': 'Usuário não encontrado',
  'Account user not found': 'Usuário da conta não encontrado',
  'Agent not found': 'Agente não encontrado',
  'Agent bot not found': 'Bot de agente não encontrado',
  'This user is already an agent of this account': 'Este usuário já é agente desta conta',
  'is already a member of this account': 'já é membro desta conta',
  'the last administrator of the account cannot be demoted or removed':
    'o último administrador da conta não pode ser rebaixado nem removido',
  'are not agents of this account: %{ids}': 'não são agentes desta conta: %{ids}',
  'Team not found': 'Time não encontrado',
  'A team with this name already exists in this account': 'Já existe um time com este nome nesta conta',

  // Invitations and passwords.
  'This link is invalid, was already used or has expired': 'Este link é inválido, já foi usado ou expirou',
  "doesn't match password": 'não confere com password',
  'is too short (minimum is %{min} characters)': 'é curto demais (mínimo de %{min} caracteres)',
  'is too long (maximum is %{max} characters)': 'é longo demais (máximo de %{max} caracteres)',
  'is not an e-mail address': 'não é um endereço de e-mail',

  // The platform interface.
  "Account not found for this platform app: an app manages only the accounts it created (those made with cli.js belong to the installation's first platform app)":
    'Conta não encontrada para este app da plataforma: um app gerencia só as contas que criou (as criadas com cli.js pertencem ao primeiro app da plataforma da instalação)',
  "User not found for this platform app: an app manages only the users it created (those made with cli.js belong to the installation's first platform app)":
    'Usuário não encontrado para este app da plataforma: um app gerencia só os usuários que criou (os criados com cli.js pertencem ao primeiro app da plataforma da instalação)',
  "Agent bot not found for this platform app: an app manages only the agent bots it created (those made with cli.js belong to the installation's first platform app)":
    'Agent bot não encontrado para este app da plataforma: um app gerencia só os agent bots que criou (os criados com cli.js pertencem ao primeiro app da plataforma da instalação)',

  // The public (widget) interface.
  'Contact not found': 'Contato não encontrado',
  'Inbox not found': 'Caixa de entrada não encontrada',
  'HMAC failed: Invalid Identifier Hash Provided': 'Falha no HMAC: o hash do identificador informado é inválido',
  'must be webwidget.triggered or campaign.triggered': 'deve ser webwidget.triggered ou campaign.triggered',
  'must be the number of a campaign': 'deve ser o número de uma campanha',
  'is too large (maximum is %{max} characters as JSON)': 'é grande demais (máximo de %{max} caracteres em JSON)',
});

declare module '../../core/i18n/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this file's keys to the catalogue
  interface Messages extends Keys<typeof chatIdentityMessages> {}
}
