import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { uplinkSchema } from '../../src/contract/uplink.schema';
import { fastUplink, parseUplink } from './uplink-parse';

// values near every rule's edges, plus the wrong types, so both sides of each check are drawn
const number = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 0.5, 100, 100.5, 255, 256, 100_000, 100_000.5, 8.64e15, 8.64e15 + 2, 2 ** 53, -(2 ** 53), 1e300, -1e300),
  fc.integer({ min: -5, max: 300_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.nat({ max: 2 ** 53 - 1 }),
);
const junk = fc.oneof(fc.constant(null), fc.boolean(), fc.string({ maxLength: 4 }), fc.constant([]), fc.constant({}));
const value = fc.oneof({ weight: 6, arbitrary: number }, { weight: 1, arbitrary: junk });
const serial = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('ABCDEF12', '1000ABCD', 'abcdef') },
  fc.constantFrom('ABCDEF12', 'abcdef', ' 1234abcd ', 'ABCDEF1', 'ABCDEFG1', '\tabcdef\n', 'ÀBCDEF', '123456789', ''),
  fc.stringMatching(/^\s?[0-9a-fA-F]{5,9}\s?$/),
  fc.string({ maxLength: 10 }),
);
// mostly valid, sometimes not: each field is drawn from its valid values or from anything
const mostly = <T,>(ok: fc.Arbitrary<T>) => fc.oneof({ weight: 30, arbitrary: ok }, { weight: 1, arbitrary: value });
const time = mostly(fc.oneof({ weight: 4, arbitrary: fc.nat({ max: 8.64e15 }) }, fc.constantFrom(0, 8.64e15, 1_767_225_600_000, -1, 8.64e15 + 2, 0.5, 2 ** 53)));
const distance = mostly(fc.oneof({ weight: 4, arbitrary: fc.double({ min: 0, max: 100_000, noNaN: true }) }, fc.constantFrom(0, 100_000, 1234, -0.1, 100_000.01)));
const measurement = fc.oneof(
  { weight: 20, arbitrary: fc.record({ time, rawDistance: distance, betaRawDistance: fc.oneof(distance, fc.constant(null)) }, { requiredKeys: ['time', 'rawDistance'] }) },
  { weight: 1, arbitrary: fc.record({ time: value, rawDistance: value, betaRawDistance: fc.oneof(value, fc.constant(null)), extra: junk }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: junk },
);
const code = fc.oneof({ weight: 8, arbitrary: fc.constantFrom('E1', 'E12', 'E0', 'E99') }, { weight: 1, arbitrary: fc.constantFrom('E123', 'E', 'e1', 'E1 ', 'X3', 'E１') }, { weight: 1, arbitrary: junk });
const error = fc.oneof(
  { weight: 20, arbitrary: fc.record({ time, code }) },
  { weight: 1, arbitrary: fc.record({ time: value, code, extra: junk }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: junk },
);
// long lists of valid items, so the length limit (100) is what decides
const list = <T, U>(arb: fc.Arbitrary<T>, valid: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 16, arbitrary: fc.array(arb, { maxLength: 4 }) }, { weight: 2, arbitrary: fc.array(valid, { minLength: 99, maxLength: 102 }) }, { weight: 1, arbitrary: junk });
const body = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.record(
      {
        serial,
        sentAt: time,
        measurements: list(measurement, fc.record({ time: fc.nat(), rawDistance: fc.nat({ max: 100_000 }) })),
        errors: list(error, fc.record({ time: fc.nat(), code: fc.constant('E2') })),
        battery: mostly(fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), fc.constantFrom(0, 100, 80, -0.5, 100.5, 101))),
        signalLevel: mostly(fc.double({ noNaN: true, noDefaultInfinity: true })),
        linkQuality: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('EXCELLENT', 'GOOD', 'AVERAGE', 'LIMIT', 'OFFLINE') }, { weight: 1, arbitrary: fc.constantFrom('good', 'BAD') }, { weight: 1, arbitrary: junk }),
        accelerometer: mostly(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(-1, 256, 1.5))),
        appliedTasks: fc.oneof({ weight: 8, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.constant([{ id: '0b0c5cb6-6b7e-4e8f-9a55-2b0d1c3f4a5b', ok: true }]) }, { weight: 1, arbitrary: junk }),
      },
      { requiredKeys: [] },
    ),
  },
  {
    weight: 3,
    arbitrary: fc.record(
      { serial, measurements: list(measurement, fc.record({ time: fc.nat(), rawDistance: fc.nat({ max: 100_000 }) })), bootInfo: fc.constantFrom({ buildType: 'Beta' }, { firmwareVersion: -1 }), other: junk, sentAt: value, battery: value, signalLevel: value, accelerometer: value },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: junk },
  { weight: 1, arbitrary: fc.array(junk) },
);
// bodies as they arrive: through JSON text (no undefined, no -0 kept, plain prototypes)
const arrived = body.map((b) => JSON.parse(JSON.stringify(b)) as unknown);

describe('the uplink fast check', () => {
  it('accepts only what zod accepts, and builds exactly the value zod builds (keys and their order included)', () => {
    let fast = 0;
    fc.assert(
      fc.property(arrived, (b) => {
        const got = fastUplink(b);
        const zod = uplinkSchema.safeParse(b);
        if (got) {
          fast++;
          expect(zod.success).toBe(true);
          expect(JSON.stringify(got)).toBe(JSON.stringify(zod.data));
          expect(got).toStrictEqual(zod.data);
        }
        const parsed = parseUplink(b);
        expect(parsed.success).toBe(zod.success);
        if (parsed.success) expect(JSON.stringify(parsed.data)).toBe(JSON.stringify(zod.data));
        else {
          const i = zod.error!.issues[0];
          expect(parsed.message).toBe(`Invalid uplink: ${i.path.join('.') || 'body'}: ${i.message}`);
        }
      }),
      { numRuns: 20_000 },
    );
    // the generator reaches the fast path often enough for the property to mean something
    expect(fast).toBeGreaterThan(500);
  });

  it('takes the devices’ usual uplinks itself', () => {
    const usual = [
      { serial: '1000ABCD', battery: 80, signalLevel: 18, linkQuality: 'GOOD', measurements: [{ time: 1_767_225_600_000, rawDistance: 1234 }] },
      { serial: '1000abcd', battery: 80, signalLevel: 18, linkQuality: 'GOOD', errors: [{ time: 1_767_225_600_000, code: 'E3' }] },
      { serial: 'ABCDEF', measurements: [{ time: 1, rawDistance: 0, betaRawDistance: null }, { time: 2, rawDistance: 5.5, betaRawDistance: 7 }], appliedTasks: [] },
    ];
    for (const b of usual) {
      expect(fastUplink(b)).toBeDefined();
      expect(fastUplink(b)).toStrictEqual(uplinkSchema.parse(b));
    }
  });
});
