import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import { SessionKeeper, sessionFromHeaders, type DeviceSession } from '../../shared/auth/device-session.js';
import type { ApiError } from '../../shared/api/errors.js';
import { api, settle, type Availability, type Profile, type ProfileAccount } from '../api.js';

export const SESSION_KEY = 'ponte.session';
const LAST_ACCOUNT_KEY = 'ponte.account';
/** Why the last session ended, kept for this tab so the sign-in page still says it after a reload. */
const ENDING_KEY = 'ponte.session.ending';

/** The profile as the app keeps it: without the user's permanent access token. */
export type SignedInUser = Omit<Profile, 'access_token'>;

/** Why the session is gone: the user signed out, or the server ended it (a 401). */
export type Ending = 'signed_out' | 'ended' | null;

function readEnding(): Ending {
  const kept = window.sessionStorage.getItem(ENDING_KEY);
  return kept === 'signed_out' || kept === 'ended' ? kept : null;
}

function withoutToken(profile: Profile): SignedInUser {
  const { access_token: _permanent, ...user } = profile;
  return user;
}

/**
 * Who is signed in on this device: the device session (kept across reloads and shared by the
 * tabs, web/shared/auth/device-session.ts) and the profile with the user's accounts.
 */
export const useSessionStore = defineStore('session', () => {
  const keeper = new SessionKeeper(window.localStorage, SESSION_KEY);
  const device = shallowRef<DeviceSession | null>(keeper.read());
  const user = shallowRef<SignedInUser | null>(null);
  const ending = ref<Ending>(device.value ? null : readEnding());
  watch(ending, (why) => {
    if (why) window.sessionStorage.setItem(ENDING_KEY, why);
    else window.sessionStorage.removeItem(ENDING_KEY);
  });

  const signedIn = computed(() => device.value !== null);
  const accounts = computed<ProfileAccount[]>(() => user.value?.accounts ?? []);
  const accountById = (id: number) => accounts.value.find((a) => a.id === id);

  // Another tab signed in or out: follow it.
  window.addEventListener('storage', (event) => {
    if (event.key !== SESSION_KEY && event.key !== null) return;
    const next = keeper.read();
    if (next?.client === device.value?.client) return;
    device.value = next;
    user.value = null;
    if (!next) ending.value = 'signed_out';
  });

  function adopt(response: Response, profile: Profile): ApiError | null {
    const session = sessionFromHeaders(response.headers);
    if (!session) return { status: response.status, code: 'no_session', message: '', details: [] };
    keeper.write(session);
    device.value = session;
    user.value = withoutToken(profile);
    ending.value = null;
    return null;
  }

  /** Signs in with e-mail and password; the refusal when it fails. */
  async function signIn(email: string, password: string): Promise<ApiError | null> {
    const outcome = await settle(api.POST('/auth/sign_in', { body: { email, password } }));
    return outcome.ok ? adopt(outcome.response, outcome.data.data) : outcome.error;
  }

  /** Signs in with a single sign-on link's token (it works once). */
  async function signInWithLink(email: string, token: string): Promise<ApiError | null> {
    const outcome = await settle(api.POST('/auth/sign_in', { body: { email, sso_auth_token: token } }));
    return outcome.ok ? adopt(outcome.response, outcome.data.data) : outcome.error;
  }

  /** Reads the profile (the user and their accounts); the refusal when it fails. */
  async function loadProfile(): Promise<ApiError | null> {
    const outcome = await settle(api.GET('/api/v1/profile'));
    if (!outcome.ok) return outcome.error;
    user.value = withoutToken(outcome.data);
    return null;
  }

  /** Forgets the session on this device (the server ended it, or the user signed out). */
  function forget(why: Exclude<Ending, null>): void {
    keeper.clear();
    device.value = null;
    user.value = null;
    ending.value = why;
  }

  /** Ends the session on the server, then here (here even when the server cannot be reached). */
  async function signOut(): Promise<void> {
    if (device.value) await settle(api.DELETE('/auth/sign_out'));
    forget('signed_out');
  }

  /**
   * Sets the user's availability in an account. Today's API lets an administrator set it (the
   * agents route); an agent's own availability needs a profile route the server does not have yet.
   */
  const canSetAvailability = (accountId: number) => accountById(accountId)?.role === 'administrator';

  async function setAvailability(accountId: number, availability: Availability): Promise<ApiError | null> {
    const me = user.value;
    if (!me) return null;
    const outcome = await settle(
      api.PATCH('/api/v1/accounts/{accountId}/agents/{id}', {
        params: { path: { accountId, id: me.id } },
        body: { availability },
      }),
    );
    if (!outcome.ok) return outcome.error;
    return loadProfile();
  }

  /** The account to open: the one used last on this device if the user still belongs to it, else the first. */
  function homeAccount(): ProfileAccount | undefined {
    const last = Number(window.localStorage.getItem(LAST_ACCOUNT_KEY));
    return accountById(last) ?? accounts.value[0];
  }

  function rememberAccount(accountId: number): void {
    window.localStorage.setItem(LAST_ACCOUNT_KEY, String(accountId));
  }

  return {
    device,
    user,
    ending,
    signedIn,
    accounts,
    accountById,
    signIn,
    signInWithLink,
    loadProfile,
    forget,
    signOut,
    canSetAvailability,
    setAvailability,
    homeAccount,
    rememberAccount,
  };
});
