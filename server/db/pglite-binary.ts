import type { PGlite } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import type { Row } from './db';

/**
 * One statement on PGlite with its results in PostgreSQL's binary format, bytea columns as Buffers
 * that view the answer (no text, no copy). PGlite's query() decodes every column to a JS string
 * first (TextDecoder) and crosses into its WASM five times a statement; a measurement page's
 * columns are about 1 MB of such text, large strings that filled the server's old generation and
 * made V8 collect it in full once or twice a year of pages (benchmark 6, bench/README.md). Here the
 * statement is one wire-protocol exchange (Parse, Bind asking binary results, Describe, Execute,
 * Sync) through PGlite's execProtocolRawStream, run in a transaction of its own: that holds PGlite's
 * transaction lock, so the exchange never lands between another transaction's statements.
 *
 * Parameters travel as text, as PGlite's query() sends them (null as NULL). Only the column types
 * below are decoded; any other is an error naming its type, not a wrong value.
 */
export async function queryBinary<T = Row>(pg: PGlite, sql: string, params: unknown[] = []): Promise<T[]> {
  const values = params.map((v) => (v === null || v === undefined ? null : String(v)));
  const message = Buffer.concat([
    serialize.parse({ text: sql }),
    serialize.bind({ values, binary: true }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ]);
  // execProtocolRaw would also parse the answer into PGlite's messages, decoding every field to a
  // string; the stream form hands over the bytes only, as views of PGlite's memory, so each
  // message is copied out at once into a Buffer of its own exact size (a page's DataRow, about
  // 700 KB, arrives split between PostgreSQL's send buffer and a direct write)
  // The answer is read inside the transaction: a database error thrown there rolls it back and is
  // what the caller gets (PGlite's COMMIT of an aborted transaction would throw an error of its own)
  return pg.transaction(async () => {
    const messages = new MessageSplitter();
    await pg.runExclusive(() => pg.execProtocolRawStream(message, { syncToFs: false, onRawData: (bytes) => messages.push(bytes) }));
    return readAnswer<T>(messages.done());
  });
}

/** Cuts a byte stream into whole backend messages (type byte, int32 length, body), one copy each. */
export class MessageSplitter {
  private readonly messages: Buffer[] = [];
  private head = Buffer.alloc(5);
  private headHave = 0;
  private body: Buffer | null = null;
  private bodyHave = 0;

  push(bytes: Uint8Array) {
    for (let at = 0; at < bytes.length; ) {
      if (this.body === null) {
        const n = Math.min(5 - this.headHave, bytes.length - at);
        this.head.set(bytes.subarray(at, at + n), this.headHave);
        this.headHave += n;
        at += n;
        if (this.headHave < 5) return;
        // the whole message, header included, in one Buffer (small ones from Node's pool)
        this.body = Buffer.allocUnsafe(1 + this.head.readInt32BE(1));
        this.head.copy(this.body, 0, 0, 5);
        this.bodyHave = 5;
      }
      const n = Math.min(this.body.length - this.bodyHave, bytes.length - at);
      this.body.set(bytes.subarray(at, at + n), this.bodyHave);
      this.bodyHave += n;
      at += n;
      if (this.bodyHave === this.body.length) {
        this.messages.push(this.body);
        this.body = null;
        this.headHave = 0;
      }
    }
  }

  /** The whole messages; a cut one is an error (the answer ended inside it). */
  done(): Buffer[] {
    if (this.body !== null || this.headHave > 0) throw new Error('queryBinary: the answer ended inside a message');
    return this.messages;
  }
}

/** A PostgreSQL error from the answer, with its SQLSTATE as `code` (as both drivers' errors carry). */
export class BinaryQueryError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'DatabaseError';
  }
}

type Decode = (b: Buffer, at: number, len: number) => unknown;
// type OIDs (pg_type.oid) and their binary forms, all big-endian
const DECODERS: Record<number, Decode> = {
  16: (b, at) => b[at] !== 0, // bool
  17: (b, at, len) => b.subarray(at, at + len), // bytea: a view of the answer
  20: (b, at) => Number(b.readBigInt64BE(at)), // int8: a number, as both drivers give it (epoch ms and counts fit 2^53)
  21: (b, at) => b.readInt16BE(at), // int2
  23: (b, at) => b.readInt32BE(at), // int4
  25: (b, at, len) => b.toString('utf8', at, at + len), // text
  700: (b, at) => b.readFloatBE(at), // float4
  701: (b, at) => b.readDoubleBE(at), // float8
  1043: (b, at, len) => b.toString('utf8', at, at + len), // varchar
};

/** The rows of one statement's answer (RowDescription, DataRows), or its ErrorResponse thrown. */
export function readAnswer<T = Row>(messages: Buffer[]): T[] {
  let columns: { name: string; decode: Decode }[] = [];
  const rows: T[] = [];
  for (const b of messages) {
    const type = b[0];
    let p = 5;
    if (type === 0x54 /* T: RowDescription */) {
      const n = b.readInt16BE(p);
      p += 2;
      columns = [];
      for (let i = 0; i < n; i++) {
        const zero = b.indexOf(0, p);
        const name = b.toString('utf8', p, zero);
        p = zero + 1;
        const oid = b.readInt32BE(p + 6);
        p += 18; // table oid, column number, type oid, size, modifier, format
        const decode = DECODERS[oid];
        columns.push({
          name,
          decode:
            decode ??
            (() => {
              throw new Error(`queryBinary: column ${name} has type oid ${oid}, which it does not decode`);
            }),
        });
      }
    } else if (type === 0x44 /* D: DataRow */) {
      const n = b.readInt16BE(p);
      p += 2;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        const len = b.readInt32BE(p);
        p += 4;
        row[columns[i].name] = len < 0 ? null : columns[i].decode(b, p, len);
        if (len > 0) p += len;
      }
      rows.push(row as T);
    } else if (type === 0x45 /* E: ErrorResponse */) {
      const fields: Record<string, string> = {};
      while (b[p] !== 0) {
        const zero = b.indexOf(0, p + 1);
        fields[String.fromCharCode(b[p])] = b.toString('utf8', p + 1, zero);
        p = zero + 1;
      }
      throw new BinaryQueryError(fields.M ?? 'database error', fields.C);
    }
  }
  return rows;
}
