import { defineMessages, type Keys } from '../../core/i18n/catalogue.js';

/**
 * Automation rules, pipeline automations and integrations (the OpenAI-compatible assistant).
 * English key -> Brazilian Portuguese (core/i18n/catalogue.ts).
 */
export const chatAutomationMessages = defineMessages('chat automation', {
  // Automation rules.
  'Automation rule not found': 'Regra de automação não encontrada',
  "'%{name}' is not an action (use %{names})": "'%{name}' não é uma ação (use %{names})",
  'must hold exactly one value': 'deve conter exatamente um valor',
  'must be an id': 'deve ser um id',
  'must name at least one label': 'deve indicar pelo menos uma etiqueta',
  'must name at most %{max} labels': 'deve indicar no máximo %{max} etiquetas',
  'must name at least one e-mail address': 'deve indicar pelo menos um endereço de e-mail',
  'must name at most %{max} e-mail addresses': 'deve indicar no máximo %{max} endereços de e-mail',
  "'%{address}' is not a valid e-mail address": "'%{address}' não é um endereço de e-mail válido",
  'must be empty': 'deve estar vazio',
  '%{id} is not an SLA policy of this account': '%{id} não é uma política de SLA desta conta',
  'a conversation has at most %{max} labels': 'uma conversa tem no máximo %{max} etiquetas',
  "'%{key}' is only available in message_created rules": "'%{key}' só está disponível em regras de message_created",
  "'%{operator}' is not supported for '%{key}' (use %{operators})":
    "'%{operator}' não é aceito para '%{key}' (use %{operators})",
  "'%{value}' is not one of incoming, outgoing": "'%{value}' não é um destes: incoming, outgoing",
  "'%{event}' is not supported (use %{events})": "'%{event}' não é aceito (use %{events})",

  // Pipeline automations.
  'Pipeline automation not found': 'Automação do funil não encontrada',
  'The team has no agents to assign': 'O time não tem agentes para atribuir',
  'The card has no contact to label': 'O card não tem contato para etiquetar',
  'The card has no linked conversation to send a message to':
    'O card não tem conversa vinculada para a qual enviar uma mensagem',
  'from_stage and to_stage are only set by stage_change': 'from_stage e to_stage só são definidos por stage_change',
  'must be an integer between 0 and 100': 'deve ser um número inteiro entre 0 e 100',
  'must be an integer between 1 and 3650': 'deve ser um número inteiro entre 1 e 3650',
  'must be up or down': 'deve ser up ou down',
  'must hold at least one action': 'deve conter pelo menos uma ação',
  'the team has no agents': 'o time não tem agentes',
  'is not a setting of %{trigger}': 'não é uma configuração de %{trigger}',
  'is not a known key (%{keys})': 'não é uma chave conhecida (%{keys})',
  'must be at most %{max} characters': 'deve ter no máximo %{max} caracteres',
  'must be at most 255 characters': 'deve ter no máximo 255 caracteres',
  'names unknown variables %{names} (use %{variables})': 'cita variáveis desconhecidas %{names} (use %{variables})',
  'must name a stage id': 'deve indicar o id de uma etapa',
  "'%{stage}' is not a stage of this account": "'%{stage}' não é uma etapa desta conta",
  'must be round_robin': 'deve ser round_robin',
  'must be 1-64 letters, digits, _ or -': 'deve ter de 1 a 64 letras, dígitos, _ ou -',
  'must be a string, a number, a boolean or null': 'deve ser um texto, um número, um booleano ou null',
  'must be 1 to 20 labels': 'deve ter de 1 a 20 etiquetas',
  'must be a URL': 'deve ser uma URL',
  'must be 1 to 10 e-mail addresses': 'deve ter de 1 a 10 endereços de e-mail',
  'must be a string': 'deve ser texto',

  // Integrations.
  'Integration app not found': 'Aplicativo de integração não encontrado',
  'Integration hook not found': 'Hook de integração não encontrado',
  'is not an available integration (apps: %{apps})': 'não é uma integração disponível (aplicativos: %{apps})',
  '%{app} is managed at %{path}, not as hooks': '%{app} é gerenciado em %{path}, não como hooks',
  'An %{app} hook for this account already exists: change it with PATCH':
    'Já existe um hook %{app} para esta conta: altere-o com PATCH',
  'An %{app} hook for this inbox already exists: change it with PATCH':
    'Já existe um hook %{app} para esta caixa de entrada: altere-o com PATCH',
  'Hook %{id} is a %{app} hook, which processes no events': 'O hook %{id} é um hook %{app}, que não processa eventos',
  'Hook %{id} is disabled: enable it with PATCH {"status": 1}':
    'O hook %{id} está desativado: ative-o com PATCH {"status": 1}',
  'The secret settings of hook %{id} cannot be decrypted (CHAT_ENCRYPTION_KEY changed?): save them again with PATCH':
    'As configurações secretas do hook %{id} não podem ser descriptografadas (CHAT_ENCRYPTION_KEY foi alterada?): salve-as de novo com PATCH',
  'Hook %{id} has no API key: save one with PATCH': 'O hook %{id} não tem chave de API: salve uma com PATCH',
  'is not a setting of %{app} (settings: %{known})': 'não é uma configuração de %{app} (configurações: %{known})',
  none: 'nenhuma',
  'is too long (at most %{max} characters)': 'é longo demais (no máximo %{max} caracteres)',
  'Invalid %{app} settings: %{problems}': 'Configurações de %{app} inválidas: %{problems}',
  'must not carry credentials (put the key in settings.api_key)':
    'não pode conter credenciais (coloque a chave em settings.api_key)',
  'must not have a fragment (#...)': 'não pode ter fragmento (#...)',
  'is required for %{event}': 'é obrigatório para %{event}',
  'is not in inbox %{inbox}, the only inbox hook %{hook} serves':
    'não está na caixa de entrada %{inbox}, a única que o hook %{hook} atende',
  'The conversation has no messages to work from': 'A conversa não tem mensagens com que trabalhar',
  'has no messages to work from': 'não tem mensagens com que trabalhar',
  "can't be blank for %{event}": 'não pode ficar em branco para %{event}',

  // The OpenAI-compatible endpoint.
  "The assistant's endpoint is refused: %{reason} (settings.base_url; private addresses need WEBHOOK_ALLOWED_HOSTS)":
    'O endpoint do assistente foi recusado: %{reason} (settings.base_url; endereços privados precisam de WEBHOOK_ALLOWED_HOSTS)',
  'destination refused': 'destino recusado',
  'The OpenAI-compatible endpoint answered more than 1 MiB': 'O endpoint compatível com OpenAI respondeu mais de 1 MiB',
  'The OpenAI-compatible endpoint did not answer within %{seconds} s (INTEGRATIONS_TIMEOUT_SECONDS)':
    'O endpoint compatível com OpenAI não respondeu em %{seconds} s (INTEGRATIONS_TIMEOUT_SECONDS)',
  'The OpenAI-compatible endpoint could not be reached (%{code})':
    'Não foi possível alcançar o endpoint compatível com OpenAI (%{code})',
  'The OpenAI-compatible endpoint refused the API key (HTTP %{status}): check settings.api_key':
    'O endpoint compatível com OpenAI recusou a chave de API (HTTP %{status}): verifique settings.api_key',
  "The OpenAI-compatible endpoint says the API key's quota is used up: check its plan and billing":
    'O endpoint compatível com OpenAI diz que a cota da chave de API acabou: verifique o plano e o faturamento',
  'The OpenAI-compatible endpoint is rate-limiting this API key: try again in %{seconds} s':
    'O endpoint compatível com OpenAI está limitando a taxa desta chave de API: tente de novo em %{seconds} s',
  'The OpenAI-compatible endpoint refused the request (HTTP %{status})':
    'O endpoint compatível com OpenAI recusou a requisição (HTTP %{status})',
  'The OpenAI-compatible endpoint refused the request (HTTP %{status}): check settings.base_url and settings.model':
    'O endpoint compatível com OpenAI recusou a requisição (HTTP %{status}): verifique settings.base_url e settings.model',
  '%{refusal}: %{said}': '%{refusal}: %{said}',
  'The OpenAI-compatible endpoint answered a redirect (HTTP %{status}), which is not followed: check settings.base_url':
    'O endpoint compatível com OpenAI respondeu com um redirecionamento (HTTP %{status}), que não é seguido: verifique settings.base_url',
  'The OpenAI-compatible endpoint failed (HTTP %{status})': 'O endpoint compatível com OpenAI falhou (HTTP %{status})',
  'The OpenAI-compatible endpoint answered %{what}, not a chat completion':
    'O endpoint compatível com OpenAI respondeu %{what}, não um chat completion',
  'something that is not JSON': 'algo que não é JSON',
  'no choices': 'nenhuma choice',
  'a choice without text': 'uma choice sem texto',
});

declare module '../../core/i18n/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this file's keys to the catalogue
  interface Messages extends Keys<typeof chatAutomationMessages> {}
}
