import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installClientErrorReporting, MAX_PER_PAGE, reportClientError } from './client-errors';
import { clientErrorReportSchema } from '../contract/client-error.schema';

/** A node stand-in for the window the reporter listens on. */
const win = new EventTarget();
const fireError = (error: unknown) => win.dispatchEvent(Object.assign(new Event('error'), { error, message: String(error) }));
const fireRejection = (reason: unknown) => win.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason }));
const tick = () => new Promise((r) => setTimeout(r, 10));

describe('client error reporting (monitoring-client 9: sample rate 0.1)', () => {
  let sent: { url: string; body: unknown }[];
  let uninstall: () => void;
  let roll: number;

  beforeEach(() => {
    Object.assign(globalThis, { window: win, location: { href: 'http://localhost/org/x/sensors' } });
    sent = [];
    roll = 0;
    uninstall = installClientErrorReporting({
      endpoint: 'http://localhost/api/',
      sampleRate: 0.1,
      release: 'test',
      random: () => roll,
      send: async (url, init) => {
        sent.push({ url: String(url), body: JSON.parse(String(init?.body)) });
        return new Response('{}', { status: 201 });
      },
    });
  });
  afterEach(() => uninstall());

  it('sends window errors and unhandled rejections in the contract shape', async () => {
    fireError(new TypeError('x is undefined'));
    fireRejection(new Error('fetch went wrong'));
    await tick();
    expect(sent.map((s) => s.url)).toEqual(['http://localhost/api/client-errors', 'http://localhost/api/client-errors']);
    const [a, b] = sent.map((s) => clientErrorReportSchema.parse(s.body));
    expect(a).toMatchObject({ kind: 'error', message: 'TypeError: x is undefined', url: 'http://localhost/org/x/sensors', release: 'test' });
    expect(a.stack).toContain('x is undefined');
    expect(b).toMatchObject({ kind: 'unhandledrejection', message: 'Error: fetch went wrong' });
  });

  it('sends only the sampled share: a roll at or above the rate is dropped', async () => {
    roll = 0.1;
    expect(await reportClientError('render', new Error('not sampled'))).toBe(false);
    roll = 0.0999;
    expect(await reportClientError('render', new Error('sampled'), '\n at Chart')).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatchObject({ kind: 'render', message: 'Error: sampled', componentStack: '\n at Chart' });
  });

  it('sends one error once, one message once, and at most MAX_PER_PAGE reports a page load', async () => {
    const e = new Error('twice');
    await reportClientError('render', e);
    await reportClientError('render', e);
    await reportClientError('error', new Error('twice'));
    expect(sent).toHaveLength(1);
    for (let i = 0; i < 20; i++) await reportClientError('error', new Error(`loop ${i}`));
    expect(sent).toHaveLength(MAX_PER_PAGE);
  });

  it('reports strings and odd values without throwing, and nothing after uninstall', async () => {
    fireRejection('plain string');
    fireRejection({ code: 42 });
    await tick();
    expect(sent.map((s) => (s.body as { message: string }).message)).toEqual(['plain string', '{"code":42}']);
    uninstall();
    fireError(new Error('after'));
    await tick();
    expect(sent).toHaveLength(2);
  });
});
