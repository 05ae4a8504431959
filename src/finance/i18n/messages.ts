/**
 * The finance service's catalogue files, loaded with the service (core/i18n/catalogue.ts): what
 * the service writes for people is rendered from them, in English or Brazilian Portuguese.
 */
import './answers.messages.js';
import './errors.messages.js';
import './pages.messages.js';
