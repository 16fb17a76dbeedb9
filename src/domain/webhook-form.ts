import { MAX_WEBHOOK_HEADERS, WEBHOOK_URL_MESSAGE, reservedWebhookHeaderMessage, type Integration, type IntegrationInput } from '../contract/live.schema';

/** The webhook form's rules (organisation-and-routes 2.1, 4 "Webhook form", 5 "Webhook", 8, 9; reserved header names, issue 35). */

export interface HeaderRow {
  key: string;
  value: string;
}
export interface WebhookValues {
  url: string;
  headers: HeaderRow[];
}
export interface WebhookErrors {
  url?: string;
  /** One entry per header row, in order. */
  headers: { key?: string; value?: string }[];
}

export const WEBHOOK_MESSAGES = {
  url: WEBHOOK_URL_MESSAGE,
  keyRequired: 'Key required',
  valueRequired: 'Value required',
  saved: 'Webhook updated successfully.',
  failed: 'Webhook updated failed due to error. Please check your internet connection and try again.',
  testSent: (url: string) => `Test event sent to ${url}. It arrives within a few seconds, signed with the secret shown here.`,
  testFailed: 'Sending the test event failed. Please check your internet connection and try again.',
} as const;

export { MAX_WEBHOOK_HEADERS };

// the same test as the gateway's (src/contract/live.schema.ts): http or https, a host, parseable
const HTTP_URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;
export const isHttpUrl = (url: string) => HTTP_URL.test(url) && URL.canParse(url);

const isEmptyRow = (h: HeaderRow) => !h.key.trim() && !h.value.trim();

/** Field messages, and whether Update may be pressed: a URL that is a valid http(s) url, or an empty URL that removes an existing webhook. */
export function validateWebhook(values: WebhookValues, hasIntegration: boolean): { errors: WebhookErrors; valid: boolean } {
  const url = values.url.trim();
  const errors: WebhookErrors = {
    url: url && !isHttpUrl(url) ? WEBHOOK_MESSAGES.url : undefined,
    headers: values.headers.map((h) =>
      isEmptyRow(h)
        ? {}
        : { key: h.key.trim() ? reservedWebhookHeaderMessage(h.key) : WEBHOOK_MESSAGES.keyRequired, value: h.value.trim() ? undefined : WEBHOOK_MESSAGES.valueRequired },
    ),
  };
  // removing the webhook ignores its header rows
  const headersOk = !url || errors.headers.every((e) => !e.key && !e.value);
  const valid = (url ? !errors.url : hasIntegration) && headersOk && values.headers.length <= MAX_WEBHOOK_HEADERS;
  return { errors, valid };
}

/** The add-header control: only once a URL exists, and at most 5 rows. */
export const canAddHeader = (values: WebhookValues) => values.url.trim() !== '' && values.headers.length < MAX_WEBHOOK_HEADERS;

/** What Update sends: trimmed, fully empty rows left out. */
export const toIntegrationInput = (values: WebhookValues): IntegrationInput => ({
  type: 'webhook',
  url: values.url.trim(),
  headers: values.headers.filter((h) => !isEmptyRow(h)).map((h) => ({ key: h.key.trim(), value: h.value.trim() })),
});

export type WebhookSave = { kind: 'create'; input: IntegrationInput } | { kind: 'update'; id: string; input: IntegrationInput } | { kind: 'delete'; id: string };

/** Spec 4: a URL with an existing integration updates it, an empty URL removes it, a URL with none creates one. */
export function chooseSave(values: WebhookValues, existing: Pick<Integration, 'id'> | null): WebhookSave | null {
  const url = values.url.trim();
  if (existing) return url ? { kind: 'update', id: existing.id, input: toIntegrationInput(values) } : { kind: 'delete', id: existing.id };
  return url ? { kind: 'create', input: toIntegrationInput(values) } : null;
}

/** The form's values for a saved integration (or an empty form). */
export const valuesOf = (integration: Pick<Integration, 'url' | 'headers'> | null): WebhookValues => ({
  url: integration?.url ?? '',
  headers: integration?.headers.map((h) => ({ ...h })) ?? [],
});
