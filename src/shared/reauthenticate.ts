import { messageForError } from '../domain/messages';
import { USER_SETTINGS_MESSAGES } from '../domain/user-settings';
import { ApiError, api } from './api';

/**
 * Proves the current password again for this sign-in (POST /api/reauthenticate, ASVS V7.5.1) before
 * a change a stolen session must not make: a new sign-in email, turning two-factor authentication
 * off. Resolves to null once proved, else to the message to show under the password field.
 */
export async function reauthenticate(password: string): Promise<string | null> {
  if (!password) return USER_SETTINGS_MESSAGES.passwordRequired;
  try {
    await api.post('/reauthenticate', { password });
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return USER_SETTINGS_MESSAGES.passwordWrong;
    return err instanceof ApiError && err.status > 0 ? err.message : messageForError(err);
  }
}
