/**
 * The conversation service's catalogue files, loaded with the service (core/i18n/catalogue.ts):
 * what the service writes for people is rendered from them, in English or Brazilian Portuguese.
 */
import './automation.messages.js';
import './conversations.messages.js';
import './help-center.messages.js';
import './identity.messages.js';
import './pages.messages.js';
import './pipelines.messages.js';
