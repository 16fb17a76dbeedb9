/** Sends one text message; the dispatcher holds at most one provider. */
export interface SmsProvider {
  readonly name: string;
  send(to: string, text: string): Promise<void>;
}

/**
 * Twilio's Messages API (form-encoded POST with basic auth). Without a provider, SMS messages
 * stay in the outbox with status 'kept' and show in /dev/mailbox, like email without SMTP_URL.
 */
export function twilioSmsProvider(opts: { accountSid: string; authToken: string; from: string; baseUrl?: string }): SmsProvider {
  const base = (opts.baseUrl ?? 'https://api.twilio.com').replace(/\/$/, '');
  const auth = Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64');
  return {
    name: 'twilio',
    async send(to, text) {
      const res = await fetch(`${base}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}/Messages.json`, {
        method: 'POST',
        headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ To: to, From: opts.from, Body: text.slice(0, 1600) }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`SMS provider answered HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
    },
  };
}

/** The configured SMS provider, or undefined (SMS are then kept in the outbox). */
export function smsProviderFromConfig(c: { TWILIO_ACCOUNT_SID?: string; TWILIO_AUTH_TOKEN?: string; TWILIO_FROM?: string; TWILIO_API_URL?: string }): SmsProvider | undefined {
  if (!c.TWILIO_ACCOUNT_SID || !c.TWILIO_AUTH_TOKEN || !c.TWILIO_FROM) return undefined;
  return twilioSmsProvider({ accountSid: c.TWILIO_ACCOUNT_SID, authToken: c.TWILIO_AUTH_TOKEN, from: c.TWILIO_FROM, baseUrl: c.TWILIO_API_URL });
}
