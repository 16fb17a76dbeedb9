import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serialize } from 'pg-protocol';
import { PGlite } from '@electric-sql/pglite';
import { freshDb } from './harness';
import type { Db } from '../../server/db/db';
import { MessageSplitter, readAnswer } from '../../server/db/pglite-binary';

// PGlite's statements in PostgreSQL's binary result format (server/db/pglite-binary.ts), which the
// measurement pages use for their bytea columns: the same values as query() gives, whatever way
// the answer's bytes are cut, errors as errors, and never inside another caller's transaction.
describe('queryBinary on PGlite', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDb('pglite'));
    await db.exec('CREATE TABLE binary_probe (id int PRIMARY KEY, n bigint)');
  });
  afterAll(() => drop?.());

  const SQL = `SELECT true AS yes, false AS no, 7::smallint AS small, -123456::int AS int, 1700000000123::bigint AS big,
                      1.5::real AS f4, -2.25::float8 AS f8, 'héllo'::text AS t, 'v'::varchar AS v,
                      '\\x00ff10'::bytea AS bytes, ''::bytea AS empty, NULL::int AS nothing
                 FROM generate_series(1, $1::int) g WHERE g >= $2::int`;

  it('gives the same values as query() for each type it decodes, bytea as Buffers, NULL as null', async () => {
    const rows = await db.queryBinary!<Record<string, unknown>>(SQL, [3, 2]);
    const text = await db.query<Record<string, unknown>>(SQL, [3, 2]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({ ...text[0], bytes: Buffer.from([0, 255, 16]), empty: Buffer.alloc(0) });
    expect(rows[0].bytes).toBeInstanceOf(Buffer);
    expect(rows[0]).toMatchObject({ yes: true, no: false, small: 7, int: -123456, big: 1700000000123, f4: 1.5, f8: -2.25, t: 'héllo', v: 'v', nothing: null });
  });

  it('answers no rows for a statement that finds none, and null parameters as NULL', async () => {
    expect(await db.queryBinary!('SELECT 1::int AS one WHERE $1::int IS NOT NULL', [null])).toEqual([]);
  });

  it('rejects with the database error (message and SQLSTATE) and leaves the database usable', async () => {
    const err = await db.queryBinary!('SELECT * FROM no_such_table').catch((e: Error & { code?: string }) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/no_such_table/);
    expect((err as { code?: string }).code).toBe('42P01');
    expect(await db.queryBinary!('SELECT 2::int AS two')).toEqual([{ two: 2 }]);
    expect(await db.query('SELECT 3::int AS three')).toEqual([{ three: 3 }]);
  });

  it('names a column whose type it does not decode instead of answering a wrong value', async () => {
    await expect(db.queryBinary!(`SELECT '{"a":1}'::jsonb AS doc`)).rejects.toThrow(/column doc has type oid 3802/);
  });

  it("waits for another caller's open transaction and never reads inside it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const didInsert = new Promise<void>((r) => (inserted = r));
    const tx = db.tx(async (q) => {
      await q.query('INSERT INTO binary_probe (id, n) VALUES (1, 10)');
      inserted();
      await gate; // the transaction stays open, its row not committed
      await q.query('UPDATE binary_probe SET n = 11 WHERE id = 1');
    });
    await didInsert;
    let seen: unknown = 'not yet';
    const read = db.queryBinary!<{ n: number }>('SELECT n FROM binary_probe WHERE id = 1').then((rows) => (seen = rows));
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toBe('not yet'); // it waits for the transaction, rather than running between its statements
    release();
    await tx;
    await read;
    expect(seen).toEqual([{ n: 11 }]);
  });
});

describe('the answer cut into whole messages', () => {
  it('gives the same rows however PGlite hands over the bytes, one copy per message', async () => {
    const pg = await PGlite.create('memory://');
    try {
      const message = Buffer.concat([
        serialize.parse({ text: `SELECT g AS n, decode(repeat('ab', g), 'hex') AS b FROM generate_series(1, 40) g` }),
        serialize.bind({ values: [], binary: true }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]);
      const answer = Buffer.from(await pg.execProtocolRaw(message, { syncToFs: false }));
      const whole = new MessageSplitter();
      whole.push(answer);
      const expected = readAnswer<{ n: number; b: Buffer }>(whole.done());
      expect(expected).toHaveLength(40);
      expect(expected[39]).toEqual({ n: 40, b: Buffer.alloc(40, 0xab) });
      // every cut point once, then pieces of 1 to 7 bytes
      for (let cut = 1; cut < answer.length; cut++) {
        const s = new MessageSplitter();
        s.push(answer.subarray(0, cut));
        s.push(answer.subarray(cut));
        expect(readAnswer(s.done())).toEqual(expected);
      }
      const s = new MessageSplitter();
      for (let at = 0, k = 0; at < answer.length; k++) {
        const n = 1 + (k % 7);
        s.push(answer.subarray(at, at + n));
        at += n;
      }
      expect(readAnswer(s.done())).toEqual(expected);
      // an answer that ends inside a message is an error, not fewer rows
      const cutShort = new MessageSplitter();
      cutShort.push(answer.subarray(0, answer.length - 3));
      expect(() => cutShort.done()).toThrow(/ended inside a message/);
    } finally {
      await pg.close();
    }
  });
});
