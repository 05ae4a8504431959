/**
 * The visitor's conversation credential (the contact identifier of the public API) kept in a
 * cookie of the host page, as Chatwoot's `cw_conversation`: it survives reloads and is shared by
 * the site's pages. SameSite=Lax, Secure when the page is HTTPS, 60 days from the last visit.
 */

export const COOKIE_NAME = 'cw_conversation';
const MAX_AGE_SECONDS = 60 * 24 * 60 * 60;

export function readCredential(): string | null {
  for (const part of document.cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE_NAME) {
      try {
        return decodeURIComponent(value.join('=')) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Writes the credential (null clears it). */
export function writeCredential(credential: string | null): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  const value = credential ? encodeURIComponent(credential) : '';
  const age = credential ? MAX_AGE_SECONDS : 0;
  document.cookie = `${COOKIE_NAME}=${value}; Path=/; Max-Age=${age}; SameSite=Lax${secure}`;
}
