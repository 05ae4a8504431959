import { defineMessages, type Keys } from './catalogue.js';

/**
 * The sentences both services share: the generic refusals, request bodies and uploads, webhooks
 * and the predicates of field problems ("email is required") that modules of both services use.
 * English key -> Brazilian Portuguese (core/i18n/catalogue.ts).
 */
export const coreMessages = defineMessages('core', {
  // How a field and its problem, and a list of problems, read.
  '%{field} %{problem}': '%{field} %{problem}',
  'Invalid request: %{problems}': 'Requisição inválida: %{problems}',

  // Generic refusals.
  'Invalid or missing access token': 'Token de acesso inválido ou ausente',
  'You are not allowed to do this': 'Você não tem permissão para fazer isto',
  'Only administrators of this account may do this': 'Somente administradores desta conta podem fazer isto',
  'Resource not found': 'Recurso não encontrado',
  'Account not found': 'Conta não encontrada',
  'Webhook not found': 'Webhook não encontrado',
  'Route %{route} not found': 'Rota %{route} não encontrada',
  'Too many requests, try again later': 'Muitas requisições; tente novamente mais tarde',
  'A record with the same unique value already exists': 'Já existe um registro com o mesmo valor único',
  'A referenced record does not exist': 'Um registro referenciado não existe',
  'The request could not be processed': 'Não foi possível processar a requisição',
  'Internal server error': 'Erro interno do servidor',
  "The server's storage is full, so nothing was saved; try again later":
    'O armazenamento do servidor está cheio, então nada foi salvo; tente novamente mais tarde',
  'The server is shutting down; send the request again in a moment':
    'O servidor está sendo desligado; envie a requisição de novo em instantes',
  'Something went wrong; please try again.': 'Algo deu errado; tente novamente.',

  // Request bodies and paths.
  'The request body is not valid JSON': 'O corpo da requisição não é um JSON válido',
  'Unsupported or malformed request content type': 'Tipo de conteúdo da requisição não suportado ou malformado',
  'Request body is too large': 'O corpo da requisição é grande demais',
  'Request too large': 'Requisição grande demais',
  'The request body nests objects or arrays deeper than %{max} levels':
    'O corpo da requisição aninha objetos ou listas em mais de %{max} níveis',
  '%{field} contains a NUL character (\\u0000)': '%{field} contém um caractere NUL (\\u0000)',
  'contains a NUL character': 'contém um caractere NUL',
  'A path segment of the request is too long': 'Um segmento do caminho da requisição é longo demais',
  'The request path is not valid (malformed percent-encoding)':
    'O caminho da requisição não é válido (codificação percentual malformada)',
  'must be JSON text': 'deve ser um texto JSON',

  // Uploads (multipart/form-data).
  'This endpoint takes a JSON body; multipart/form-data is accepted only where files can be uploaded':
    'Este endpoint recebe um corpo JSON; multipart/form-data só é aceito onde se podem enviar arquivos',
  'Send the body as application/json or multipart/form-data':
    'Envie o corpo como application/json ou multipart/form-data',
  'Expected a multipart/form-data body': 'Era esperado um corpo multipart/form-data',
  'The multipart/form-data body is malformed': 'O corpo multipart/form-data está malformado',
  'Field %{field} is longer than %{max} bytes': 'O campo %{field} tem mais de %{max} bytes',
  'Files must be sent as file[], file or attachments[], not as "%{field}"':
    'Os arquivos devem ser enviados como file[], file ou attachments[], não como "%{field}"',
  'is not a file field': 'não é um campo de arquivo',
  'Every attachment needs a file name': 'Todo anexo precisa de um nome de arquivo',
  'has no file name': 'não tem nome de arquivo',
  'Unsupported attachment "%{file}" (%{type}): supported are %{formats}':
    'Anexo "%{file}" não suportado (%{type}): são aceitos %{formats}',
  'no type': 'sem tipo',
  'images (PNG, JPG, GIF, WebP), documents (PDF, DOC, DOCX, XLS, XLSX, TXT, CSV), audio and video':
    'imagens (PNG, JPG, GIF, WebP), documentos (PDF, DOC, DOCX, XLS, XLSX, TXT, CSV), áudio e vídeo',
  'has an unsupported file type': 'tem um tipo de arquivo não suportado',
  'Attachment "%{file}" is empty': 'O anexo "%{file}" está vazio',
  'is an empty file': 'é um arquivo vazio',
  'Upload too large': 'Envio grande demais',
  'Each attachment may be at most %{megabytes} MB': 'Cada anexo pode ter no máximo %{megabytes} MB',
  'The request may be at most %{megabytes} MB': 'A requisição pode ter no máximo %{megabytes} MB',
  'At most %{max} attachments per request': 'No máximo %{max} anexos por requisição',
  'At most %{max} fields per request': 'No máximo %{max} campos por requisição',

  // Webhooks and the destinations of outgoing calls.
  'Unknown webhook events: %{events} (allowed: %{allowed})':
    'Eventos de webhook desconhecidos: %{events} (permitidos: %{allowed})',
  '%{event} is not a webhook event': '%{event} não é um evento de webhook',
  'not a valid URL': 'não é uma URL válida',
  'only http and https URLs are allowed': 'só são permitidas URLs http e https',
  'destination %{host} is not a public address': 'o destino %{host} não é um endereço público',
  'destination %{host} resolves to %{address}, which is not a public address':
    'o destino %{host} resolve para %{address}, que não é um endereço público',
  'destination %{host} resolves to nothing, which is not a public address':
    'o destino %{host} não resolve para nenhum endereço público',

  // Words the pages and e-mails of both services share.
  '%{sentence}.': '%{sentence}.',
  'Hello %{name},': 'Olá, %{name},',
  'An administrator of %{account}': 'Um administrador de %{account}',
  'an administrator': 'administrador',
  'an agent': 'agente',
  'Join %{account}': 'Participe de %{account}',
  'Choose a new password': 'Escolha uma nova senha',
  'Repeat it': 'Repita a senha',
  'The two passwords differ.': 'As duas senhas são diferentes.',
  'Open this link within one hour to choose a new password:':
    'Abra este link em até uma hora para escolher uma nova senha:',

  // The page in place of the web app when it is not built.
  'The web app is not built': 'O aplicativo web não foi compilado',
  'This server has no build of its web app in %{dir}.':
    'Este servidor não tem uma compilação do aplicativo web em %{dir}.',
  'Build it with %{build} (or %{install}, which builds everything), then start the server again.':
    'Compile-o com %{build} (ou %{install}, que compila tudo) e inicie o servidor de novo.',
  'The API works without it: %{docs}.': 'A API funciona sem ele: %{docs}.',
  'API documentation': 'Documentação da API',

  // Webhook destinations.
  'not a valid host name': 'não é um nome de host válido',

  // Push subscriptions.
  'must be an FCM registration token': 'deve ser um token de registro do FCM',
  'is too long': 'é longo demais',
  'must be a 16-byte secret, base64url': 'deve ser um segredo de 16 bytes, em base64url',
  'must be an uncompressed P-256 public key (65 bytes, base64url)':
    'deve ser uma chave pública P-256 não comprimida (65 bytes, base64url)',
  'is not a point on the P-256 curve': 'não é um ponto da curva P-256',

  // Predicates of field problems both services use.
  'is required': 'é obrigatório',
  "can't be blank": 'não pode ficar em branco',
  'must not be blank': 'não pode ficar em branco',
  'must not be empty': 'não pode ficar vazio',
  'has already been taken': 'já está em uso',
  'must be an http:// or https:// URL': 'deve ser uma URL http:// ou https://',
  'must not be before since': 'não pode ser anterior a since',
  'must be at most %{max}': 'deve ser no máximo %{max}',
  'is invalid, used or expired': 'é inválido, já foi usado ou expirou',
  'is %{status}': 'é %{status}',
  'An account must keep at least one administrator': 'Uma conta precisa manter pelo menos um administrador',
  '%{first} or %{second}': '%{first} ou %{second}',
  '%{first} and %{second}': '%{first} e %{second}',
  '%{field} is required': '%{field} é obrigatório',
  '%{fields} are required': '%{fields} são obrigatórios',
  'must be one of %{values}': 'deve ser um destes: %{values}',
  'must be one of: %{values}': 'deve ser um destes: %{values}',

  // Timestamps (core/http/timestamps.ts).
  'must be ISO 8601 (2031-09-15T09:00:00Z, 2031-09-15T09:00:00-03:00; without an offset the time is UTC), a date (2031-09-15: that UTC day) or UNIX seconds':
    'deve ser ISO 8601 (2031-09-15T09:00:00Z, 2031-09-15T09:00:00-03:00; sem deslocamento, a hora é UTC), uma data (2031-09-15: aquele dia em UTC) ou segundos UNIX',
  '%{later} must not be before %{earlier}': '%{later} não pode ser anterior a %{earlier}',
  'must not be after %{field}': 'não pode ser posterior a %{field}',
  'must not be before %{field}': 'não pode ser anterior a %{field}',
});

declare module './catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this file's keys to the catalogue
  interface Messages extends Keys<typeof coreMessages> {}
}
