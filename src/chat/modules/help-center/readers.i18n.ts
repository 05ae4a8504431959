import { defineWords } from '../../../core/i18n/catalogue.js';

/**
 * The words of the readers' pages around the articles, in the portal's languages (English when a
 * language is not here): a word table of the catalogue (core/i18n/catalogue.ts), in English,
 * Brazilian Portuguese and Spanish. Articles are shown as written; these only frame them.
 */
export interface PageWords {
  home: string;
  skipToContent: string;
  searchLabel: string;
  searchPlaceholder: string;
  searchButton: string;
  defaultHeader: string;
  resultsFor: (query: string) => string;
  resultCount: (n: number) => string;
  noResults: string;
  noResultsHint: string;
  articleCount: (n: number) => string;
  viewAll: (n: number) => string;
  otherArticles: string;
  noArticles: string;
  updatedOn: (date: string) => string;
  writtenBy: (name: string) => string;
  backTo: (name: string) => string;
  notFoundTitle: string;
  notFoundText: string;
  errorTitle: string;
  goToHomepage: string;
  languages: string;
  breadcrumb: string;
  previousPage: string;
  nextPage: string;
  poweredBy: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const en: PageWords = {
  home: 'Home',
  skipToContent: 'Skip to content',
  searchLabel: 'Search articles',
  searchPlaceholder: 'Search for articles…',
  searchButton: 'Search',
  defaultHeader: 'How can we help?',
  resultsFor: (q) => `Search results for “${q}”`,
  resultCount: (n) => plural(n, 'article found', 'articles found'),
  noResults: 'No articles match your search.',
  noResultsHint: 'Try other words, or browse the categories.',
  articleCount: (n) => plural(n, 'article', 'articles'),
  viewAll: (n) => `View all ${plural(n, 'article', 'articles')}`,
  otherArticles: 'More articles',
  noArticles: 'There are no articles here yet.',
  updatedOn: (d) => `Updated ${d}`,
  writtenBy: (name) => `Written by ${name}`,
  backTo: (name) => `Back to ${name}`,
  notFoundTitle: 'Page not found',
  notFoundText: 'The page you are looking for does not exist or is no longer available.',
  errorTitle: 'Something went wrong',
  goToHomepage: 'Go to the help center',
  languages: 'Languages',
  breadcrumb: 'Breadcrumb',
  previousPage: 'Previous',
  nextPage: 'Next',
  poweredBy: 'Powered by Ponte',
};

const pt: PageWords = {
  home: 'Início',
  skipToContent: 'Pular para o conteúdo',
  searchLabel: 'Buscar artigos',
  searchPlaceholder: 'Buscar artigos…',
  searchButton: 'Buscar',
  defaultHeader: 'Como podemos ajudar?',
  resultsFor: (q) => `Resultados para “${q}”`,
  resultCount: (n) => plural(n, 'artigo encontrado', 'artigos encontrados'),
  noResults: 'Nenhum artigo corresponde à sua busca.',
  noResultsHint: 'Tente outras palavras ou navegue pelas categorias.',
  articleCount: (n) => plural(n, 'artigo', 'artigos'),
  viewAll: (n) => `Ver ${n === 1 ? 'o artigo' : `os ${n} artigos`}`,
  otherArticles: 'Mais artigos',
  noArticles: 'Ainda não há artigos aqui.',
  updatedOn: (d) => `Atualizado em ${d}`,
  writtenBy: (name) => `Escrito por ${name}`,
  backTo: (name) => `Voltar para ${name}`,
  notFoundTitle: 'Página não encontrada',
  notFoundText: 'A página que você procura não existe ou não está mais disponível.',
  errorTitle: 'Algo deu errado',
  goToHomepage: 'Ir para a central de ajuda',
  languages: 'Idiomas',
  breadcrumb: 'Navegação estrutural',
  previousPage: 'Anterior',
  nextPage: 'Próxima',
  poweredBy: 'Feito com Ponte',
};

const es: PageWords = {
  home: 'Inicio',
  skipToContent: 'Saltar al contenido',
  searchLabel: 'Buscar artículos',
  searchPlaceholder: 'Buscar artículos…',
  searchButton: 'Buscar',
  defaultHeader: '¿Cómo podemos ayudarte?',
  resultsFor: (q) => `Resultados para «${q}»`,
  resultCount: (n) => plural(n, 'artículo encontrado', 'artículos encontrados'),
  noResults: 'Ningún artículo coincide con tu búsqueda.',
  noResultsHint: 'Prueba con otras palabras o explora las categorías.',
  articleCount: (n) => plural(n, 'artículo', 'artículos'),
  viewAll: (n) => `Ver ${n === 1 ? 'el artículo' : `los ${n} artículos`}`,
  otherArticles: 'Más artículos',
  noArticles: 'Todavía no hay artículos aquí.',
  updatedOn: (d) => `Actualizado el ${d}`,
  writtenBy: (name) => `Escrito por ${name}`,
  backTo: (name) => `Volver a ${name}`,
  notFoundTitle: 'Página no encontrada',
  notFoundText: 'La página que buscas no existe o ya no está disponible.',
  errorTitle: 'Algo salió mal',
  goToHomepage: 'Ir al centro de ayuda',
  languages: 'Idiomas',
  breadcrumb: 'Ruta de navegación',
  previousPage: 'Anterior',
  nextPage: 'Siguiente',
  poweredBy: 'Hecho con Ponte',
};

const words = defineWords<PageWords>('help center pages', { en, 'pt-BR': pt, es });

/** The page words for a locale (`pt_BR` -> Portuguese), English when the language is not here. */
export function wordsFor(locale: string): PageWords {
  const language = locale.split(/[_-]/)[0].toLowerCase();
  return words(language === 'pt' ? 'pt-BR' : language);
}

/** The HTML `lang` of a locale: `pt_BR` -> `pt-BR`. */
export const htmlLang = (locale: string): string => locale.replace('_', '-');

/** A date as readers of the locale write it ("March 3, 2025"; "3 de março de 2025"). */
export function formatDate(ms: number, locale: string): string {
  try {
    return new Intl.DateTimeFormat(htmlLang(locale), { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(ms));
  } catch {
    return new Date(ms).toISOString().slice(0, 10);
  }
}

/** The name of a language in that language ("Português (Brasil)"), for the language menu. */
export function languageName(locale: string): string {
  try {
    const name = new Intl.DisplayNames([htmlLang(locale)], { type: 'language' }).of(htmlLang(locale));
    return name ? name.charAt(0).toUpperCase() + name.slice(1) : locale;
  } catch {
    return locale;
  }
}
