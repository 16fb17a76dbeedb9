import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_MESSAGE, INVITE_LINK_MESSAGES, LOGIN_MESSAGES, NETWORK_MESSAGE, loginErrorMessage, messageForError } from './messages';

describe('gateway errors read as the spec messages (monitoring-client 8)', () => {
  it("'Failed to fetch' (a fetch TypeError or the gateway client's NETWORK_ERROR) reads as the connection message", () => {
    expect(messageForError(new TypeError('Failed to fetch'))).toBe(NETWORK_MESSAGE);
    expect(messageForError({ code: 'NETWORK_ERROR', message: 'Failed to fetch' })).toBe(NETWORK_MESSAGE);
    expect(NETWORK_MESSAGE).toBe('Unable to connect to the product. Please check your internet connection and try again.');
  });
  it('a code with a message of its own reads that message', () => {
    expect(messageForError({ code: 'FORBIDDEN', message: 'raw' })).toBe('You do not have permission to do this.');
    expect(messageForError({ code: 'NOT_LOGGED_IN', message: 'x' })).toBe('User is not logged in');
  });
  it('raw server bodies, zod dumps and unknown codes read the default message, never their own text', () => {
    expect(messageForError({ code: 'HTTP_502', message: '<html><body>Bad Gateway</body></html>' })).toBe(DEFAULT_MESSAGE);
    expect(messageForError({ code: 'INTERNAL_ERROR', message: 'Something went wrong.' })).toBe(DEFAULT_MESSAGE);
    const zodError = z.object({ sensors: z.array(z.string()) }).safeParse({ sensors: 1 }).error;
    expect(messageForError(zodError)).toBe(DEFAULT_MESSAGE);
    expect(messageForError('a string')).toBe(DEFAULT_MESSAGE);
    expect(messageForError(null)).toBe(DEFAULT_MESSAGE);
  });
});

describe('a dead invitation link says why (issue 35)', () => {
  it('the server’s invitation link messages read as they are; any other NotAuthorizedException is a wrong password', () => {
    for (const message of Object.values(INVITE_LINK_MESSAGES)) expect(loginErrorMessage({ name: 'NotAuthorizedException', message })).toBe(message);
    expect(loginErrorMessage({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' })).toBe(LOGIN_MESSAGES.badCredentials);
    expect(loginErrorMessage({ name: 'InvalidParameterException', message: INVITE_LINK_MESSAGES.used })).toBe(LOGIN_MESSAGES.other);
  });
});
