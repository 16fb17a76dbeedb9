import { describe, expect, it } from 'vitest';
import { INVITE_MESSAGES, inviteFailure } from './invite-form';

describe("the invite form's red alert (organisation-and-routes 8)", () => {
  it('names the refusal the server gave', () => {
    expect(inviteFailure({ code: 'ALREADY_A_MEMBER' })).toBe('This user is already a member of your organisation.');
    expect(inviteFailure({ code: 'ALREADY_INVITED' })).toBe('The email already exists or have been invited');
    expect(inviteFailure({ code: 'INVALID_ROLE' })).toBe(INVITE_MESSAGES.failed);
  });

  it("says the organisation's hourly invitation limit was reached for a 429 TOO_MANY_REQUESTS (issue 35)", () => {
    expect(inviteFailure({ code: 'TOO_MANY_REQUESTS', status: 429 })).toBe('Your organisation has sent too many invitations in the last hour. Please try again later.');
  });
});
