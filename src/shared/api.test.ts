import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, configureGateway, onGatewayAnswered } from './api';

/** The reader app's upload queue hears of the gateway's successful answers (src/features/reader/reconnect.ts). */
describe('onGatewayAnswered', () => {
  afterEach(() => void vi.unstubAllGlobals());

  it('is told of each call the gateway answers with success, not of a refusal or a failed fetch, until stopped', async () => {
    configureGateway({ endpoint: 'http://gateway.test/api', getIdToken: async () => 'token' });
    let answer: () => Promise<Response> = async () => new Response('{"ok":true}', { status: 200 });
    vi.stubGlobal('fetch', () => answer());
    const heard = vi.fn();
    const stop = onGatewayAnswered(heard);

    await api.get('/organisations');
    expect(heard).toHaveBeenCalledTimes(1);

    answer = async () => new Response('{"code":"NOT_ASSIGNED","message":"This route task is not assigned to you."}', { status: 403 });
    await expect(api.get('/organisations')).rejects.toThrow('This route task is not assigned to you.');
    answer = async () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(api.get('/organisations')).rejects.toThrow('Failed to fetch');
    expect(heard).toHaveBeenCalledTimes(1);

    stop();
    answer = async () => new Response('{}', { status: 200 });
    await api.get('/organisations');
    expect(heard).toHaveBeenCalledTimes(1);
  });
});
