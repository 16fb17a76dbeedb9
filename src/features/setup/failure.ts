import { isNetworkError, NETWORK_MESSAGE } from '../../domain/messages';
import { SETUP_NOTICES, SETUP_RULES } from '../../domain/setup-messages';

/**
 * A failed save's notice (sensor-setup 8): a rule the server refused reads as that rule's message
 * (SENSOR_NAME_EXISTS_IN_ORGANISATION among them), a lost connection as the connection message,
 * anything else as the section's own failure text.
 */
export function saveFailure(fallback: string) {
  return (err: unknown): string => {
    const code = (err as { code?: string } | null)?.code;
    if (code && code in SETUP_RULES) return SETUP_RULES[code as keyof typeof SETUP_RULES];
    if (isNetworkError(err)) return fallback === SETUP_NOTICES.somethingWrong ? NETWORK_MESSAGE : fallback;
    return fallback;
  };
}
