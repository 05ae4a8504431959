import { defineMessages, type Keys } from '../../core/i18n/catalogue.js';

/**
 * Conversations and what surrounds them: messages, inboxes, contacts, labels, canned responses,
 * custom attributes and filters, campaigns and files. English key -> Brazilian Portuguese
 * (core/i18n/catalogue.ts).
 */
export const chatConversationMessages = defineMessages('chat conversations', {
  // Conversations and messages.
  'Conversation not found': 'Conversa não encontrada',
  'Contact inbox not found': 'Caixa de entrada do contato não encontrada',
  'Message not found': 'Mensagem não encontrada',
  'A contact may only resolve its conversation': 'Um contato só pode resolver a própria conversa',
  'A contact may only send incoming messages': 'Um contato só pode enviar mensagens de entrada',
  'Message status update is only allowed for API inboxes':
    'A atualização de status de mensagem só é permitida em caixas de entrada de API',
  'can only answer an agent or bot message that asks for input (input_select, form, ...)':
    'só pode responder a uma mensagem de agente ou bot que pede uma resposta (input_select, form, ...)',
  'is only allowed on outgoing messages and activities': 'só é permitido em mensagens de saída e atividades',
  'SLA policies are not available': 'Políticas de SLA não estão disponíveis',
  'assignee_id or team_id is required': 'assignee_id ou team_id é obrigatório',
  'or team_id is required': 'ou team_id é obrigatório',
  "can't be blank without contact_id": 'não pode ficar em branco sem contact_id',
  "is not a member of the conversation's inbox": 'não é membro da caixa de entrada da conversa',
  'is not a team of this account': 'não é um time desta conta',
  'is not an agent of this account': 'não é um agente desta conta',
  '%{id} is not a team of this account': '%{id} não é um time desta conta',
  '%{id} is not an agent of this account': '%{id} não é um agente desta conta',
  'is only accepted with status snoozed': 'só é aceito com o status snoozed',
  'must be in the future': 'deve estar no futuro',

  // Filters (conversations, contacts, custom attributes).
  'must contain at least one condition': 'deve conter pelo menos uma condição',
  "'%{operator}' is not supported (use AND or OR)": "'%{operator}' não é aceito (use AND ou OR)",
  "'%{key}' is not a supported attribute": "'%{key}' não é um atributo aceito",
  "'%{operator}' is not a supported operator": "'%{operator}' não é um operador aceito",
  "'%{operator}' is not supported for '%{key}'": "'%{operator}' não é aceito para '%{key}'",
  "'%{operator}' is not supported for '%{key}' (%{type}: use %{operators})":
    "'%{operator}' não é aceito para '%{key}' (%{type}: use %{operators})",
  "'%{value}' is not one of %{allowed}": "'%{value}' não é um destes: %{allowed}",
  'must be strings': 'devem ser textos',
  'must be integer ids': 'devem ser ids inteiros',
  'must be a number of days up to 36500': 'deve ser um número de dias até 36500',
  'must be an ISO 8601 date or UNIX seconds': 'deve ser uma data ISO 8601 ou segundos UNIX',
  'must be numbers': 'devem ser números',
  'must be true or false': 'deve ser true ou false',

  // Inboxes.
  'differs from hmac_mandatory': 'difere de hmac_mandatory',
  'must be a valid URL': 'deve ser uma URL válida',
  'must be an http(s) URL': 'deve ser uma URL http(s)',
  'is required for %{type} channels': 'é obrigatório para canais %{type}',
  'appears twice': 'aparece duas vezes',
  'is required for an open day': 'é obrigatório para um dia aberto',
  'must be after the opening time': 'deve ser depois do horário de abertura',

  // Contacts and labels.
  'Identifier has already been taken': 'O identificador já está em uso',
  'is already used by another contact': 'já é usado por outro contato',
  'source_id is already used by another contact in this inbox':
    'source_id já é usado por outro contato nesta caixa de entrada',
  'must be another contact than base_contact_id': 'deve ser um contato diferente de base_contact_id',
  'Invalid labels: %{problems}': 'Etiquetas inválidas: %{problems}',
  'is too long (maximum is 255 characters)': 'é longo demais (máximo de 255 caracteres)',
  'must not contain commas': 'não pode conter vírgulas',
  'Label not found': 'Etiqueta não encontrada',
  'Title has already been taken': 'O título já está em uso',

  // Canned responses.
  'Canned response not found': 'Resposta pronta não encontrada',
  'A canned response with this short code already exists in this account':
    'Já existe uma resposta pronta com este código curto nesta conta',
  'must not contain spaces': 'não pode conter espaços',

  // Custom attributes and filters.
  'Custom attribute definition not found': 'Definição de atributo personalizado não encontrada',
  'A custom attribute with this key already exists for this model':
    'Já existe um atributo personalizado com esta chave para este modelo',
  'Only administrators of this account may manage custom attributes':
    'Somente administradores desta conta podem gerenciar atributos personalizados',
  'cannot be changed; create another attribute instead': 'não pode ser alterado; crie outro atributo',
  'is not a valid regular expression': 'não é uma expressão regular válida',
  'must be an ISO 8601 date': 'deve ser uma data ISO 8601',
  'must be one of attribute_values': 'deve ser um dos attribute_values',
  'must be snake_case: lowercase letters, digits and underscores':
    'deve estar em snake_case: letras minúsculas, dígitos e sublinhados',
  'must list at least one value for a list': 'deve listar pelo menos um valor para uma lista',
  "'%{key}' is a standard attribute of %{model}s": "'%{key}' é um atributo padrão de %{model}",
  'Custom filter not found': 'Filtro personalizado não encontrado',
  'Only users have saved filters': 'Somente usuários têm filtros salvos',
  'Limit reached. The maximum number of allowed custom filters for a user per account is %{max}.':
    'Limite atingido. O número máximo de filtros personalizados por usuário em cada conta é %{max}.',

  // Campaigns.
  'Campaign not found': 'Campanha não encontrada',
  'Only administrators of this account may manage campaigns':
    'Somente administradores desta conta podem gerenciar campanhas',
  'cannot change once the campaign has started sending': 'não pode mudar depois que a campanha começou a ser enviada',
  'is not a valid time': 'não é um horário válido',
  'must be Label': 'deve ser Label',
  'must be a web widget inbox for an ongoing campaign':
    'deve ser uma caixa de entrada de widget web para uma campanha contínua',

  // Files.
  'File not found': 'Arquivo não encontrado',
  'The requested range is outside the file': 'O intervalo pedido está fora do arquivo',
});

declare module '../../core/i18n/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this file's keys to the catalogue
  interface Messages extends Keys<typeof chatConversationMessages> {}
}
