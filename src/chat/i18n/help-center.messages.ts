import { defineMessages, type Keys } from '../../core/i18n/catalogue.js';

/**
 * The help center's refusals (portals, categories, articles and the readers' side). English key ->
 * Brazilian Portuguese (core/i18n/catalogue.ts). The words of its pages are in readers.i18n.ts.
 */
export const chatHelpCenterMessages = defineMessages('chat help center', {
  'Portal not found': 'Portal não encontrado',
  'Category not found': 'Categoria não encontrada',
  'Article not found': 'Artigo não encontrado',
  'Page not found': 'Página não encontrada',
  'A portal with this slug already exists': 'Já existe um portal com este slug',
  'Another portal already uses this custom domain': 'Outro portal já usa este domínio personalizado',
  'A category with this slug already exists in this portal and locale':
    'Já existe uma categoria com este slug neste portal e idioma',
  'An article with this slug already exists in this portal': 'Já existe um artigo com este slug neste portal',
  'account_id is required: you are a member of several accounts':
    'account_id é obrigatório: você é membro de várias contas',
  'is required when you are a member of several accounts': 'é obrigatório quando você é membro de várias contas',
  'must be the id of an account': 'deve ser o id de uma conta',
  'is a category of another portal': 'é uma categoria de outro portal',
  'may hold only lower-case letters, digits and single hyphens':
    'só pode ter letras minúsculas, dígitos e hífens simples',
  'may hold only lower-case letters, digits and single hyphens, with at least one letter':
    'só pode ter letras minúsculas, dígitos e hífens simples, com pelo menos uma letra',
});

declare module '../../core/i18n/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this file's keys to the catalogue
  interface Messages extends Keys<typeof chatHelpCenterMessages> {}
}
