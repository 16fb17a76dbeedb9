import { describe, expect, it } from 'vitest';
import { validateWebhook } from './webhook-form';

const url = 'https://hooks.example.com/tidewatch';

describe('the webhook form (organisation-and-routes 5 "Webhook")', () => {
  it('keeps the spec messages for a half-filled row', () => {
    const { errors, valid } = validateWebhook({ url, headers: [{ key: 'X-A', value: '' }, { key: '', value: 'v' }, { key: '', value: '' }] }, false);
    expect(errors.headers).toEqual([{ key: undefined, value: 'Value required' }, { key: 'Key required', value: undefined }, {}]);
    expect(valid).toBe(false);
  });

  it('refuses, naming it, a header the delivery sets itself, in any letter case, as the server does (issue 35)', () => {
    for (const key of ['Host', 'transfer-encoding', 'Content-Length', 'CONNECTION', 'Content-Type', 'user-agent', 'webhook-id', 'Webhook-Timestamp', 'webhook-signature', ' Host ']) {
      const { errors, valid } = validateWebhook({ url, headers: [{ key: 'X-Api-Key', value: 'k' }, { key, value: 'v' }] }, false);
      expect(errors.headers, key).toEqual([{ key: undefined, value: undefined }, { key: `The ${key.trim()} header is set by Tidewatch when it sends the webhook and cannot be changed.`, value: undefined }]);
      expect(valid, key).toBe(false);
    }
    for (const key of ['X-Host', 'Hosts', 'Authorization', 'webhook-ids']) expect(validateWebhook({ url, headers: [{ key, value: 'v' }] }, false).valid, key).toBe(true);
  });

  it('ignores the header rows of a webhook being removed', () => {
    expect(validateWebhook({ url: '', headers: [{ key: 'Host', value: 'v' }] }, true).valid).toBe(true);
  });
});
