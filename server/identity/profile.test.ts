import { describe, expect, it } from 'vitest';
import { checkMobile } from '../../src/domain/invite-form';
import { normaliseMobile } from './profile';

describe('mobile numbers (organisation-and-routes 5)', () => {
  it('takes valid numbers of the supported countries, local ones as NZ', () => {
    expect(normaliseMobile('021 155 0101')).toBe('+64211550101');
    expect(normaliseMobile('+61 412 345 678')).toBe('+61412345678');
    expect(normaliseMobile('+49 151 23456789')).toBeNull(); // Germany is not supported
    expect(normaliseMobile('12')).toBeNull();
  });

  it('the invite call takes what the invite form lets through with its soft warning, and nothing it refuses', () => {
    for (const raw of ['01 000 0000', '021 155 0101', '+64 9 000 0000', '+1 555 000 0000', '+44 7000 000000', '12', 'abc', '+49 151 23456789', '+353 85 000 0000']) {
      const form = checkMobile(raw, 'NZ');
      const sent = form.kind === 'valid' || form.kind === 'doubtful' ? form.e164 : raw; // the form sends E.164
      const server = normaliseMobile(sent, { possible: true });
      expect(server === null, raw).toBe(form.kind === 'invalid');
      if (server) expect(server).toBe(sent);
    }
    // the account form still wants a valid number ('Invalid mobile phone number')
    expect(normaliseMobile('01 000 0000')).toBeNull();
  });
});
