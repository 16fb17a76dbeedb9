/**
 * The whole compact list read as it arrives (GET .../sensors?view=summary, which the server streams
 * in batches: `{"fields":[...],"rows":[` then one JSON array per sensor, then `],"cursor":...}`):
 * each piece of text fed answers the rows complete so far, parsed, so the data worker checks and
 * maps them while the rest is still on the wire. A body of another shape (or order of keys) is
 * kept whole and parsed at the end, as JSON.parse would.
 */
export class SummaryStream {
  /** Text not yet answered: the header while it is read, then from the first incomplete row on. */
  private text = '';
  private fields: unknown[] | undefined;
  /** The body is not the streamed shape: kept whole for finish(). */
  private whole: string[] | undefined;
  /** After the rows' closing bracket: the rest of the body's object. */
  private tail: string | undefined;
  // the scanner's place in `text` and its state there (a row's nesting, inside a string, after a backslash)
  private at = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** The streamed shape's fields once its header is read (undefined for a body of another shape). */
  get fieldsRead(): unknown[] | undefined {
    return this.whole ? undefined : this.fields;
  }

  /** Reads the next piece of the body; answers the rows it completes (none while the header is read). */
  push(piece: string): unknown[] {
    if (this.whole) {
      this.whole.push(piece);
      return [];
    }
    if (this.tail !== undefined) {
      this.tail += piece;
      return [];
    }
    this.text += piece;
    if (!this.fields && !this.header()) return [];
    return this.rows();
  }

  /** The header `{"fields":[...],"rows":[`: false while more text is needed (or the body has another shape). */
  private header(): boolean {
    const m = /^\s*\{\s*"fields"\s*:\s*(\[[^\]]*\])\s*,\s*"rows"\s*:\s*\[/.exec(this.text);
    if (m) {
      this.fields = JSON.parse(m[1]!) as unknown[];
      this.text = this.text.slice(m[0].length);
      return true;
    }
    // not the streamed shape (or not yet sure): keep it whole once the start cannot be it
    const start = this.text.replace(/\s+/g, '');
    const prefix = '{"fields":[';
    if (start.length >= prefix.length ? !start.startsWith(prefix) || this.text.length > 64 * 1024 : !prefix.startsWith(start)) {
      this.whole = [this.text];
      this.text = '';
    }
    return false;
  }

  /** Scans on from where it stopped; answers the complete rows and keeps the rest. */
  private rows(): unknown[] {
    const t = this.text;
    let end = -1;
    let i = this.at;
    let { depth, inString, escaped } = this;
    for (; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true; // backslash
        else if (c === 34) inString = false; // quote
        continue;
      }
      if (c === 34) inString = true;
      else if (c === 91 || c === 123) depth++; // [ {
      else if (c === 93 || c === 125) {
        // ] }
        if (depth === 0) {
          // the rows' closing bracket
          this.tail = t.slice(i + 1);
          break;
        }
        if (--depth === 0) end = i + 1;
      }
    }
    const done = end < 0 ? '' : t.slice(0, end);
    if (this.tail !== undefined) {
      this.text = '';
      this.at = 0;
    } else {
      this.text = end < 0 ? t : t.slice(end);
      this.at = i - Math.max(end, 0);
      this.depth = depth;
      this.inString = inString;
      this.escaped = escaped;
    }
    // the complete rows with the commas between them (and perhaps a leading one)
    const body = done.replace(/^\s*,/, '');
    return body.trim() === '' ? [] : (JSON.parse(`[${body}]`) as unknown[]);
  }

  /**
   * The body once all of it is in: the streamed shape's fields and what followed its rows (rows
   * empty: they were answered as they came), or the whole body parsed. Throws on a body cut short.
   */
  finish(): Record<string, unknown> & { rows: unknown[] } {
    if (this.whole) return JSON.parse(this.whole.join('')) as Record<string, unknown> & { rows: unknown[] };
    if (!this.fields || this.tail === undefined) {
      if (!this.fields) return JSON.parse(this.text) as Record<string, unknown> & { rows: unknown[] };
      throw new SyntaxError('The sensor list ended before its last row.');
    }
    const rest = this.tail.trim();
    const after = rest === '}' ? {} : (JSON.parse(`{${rest.replace(/^,/, '')}`) as Record<string, unknown>);
    return { ...after, fields: this.fields, rows: [] };
  }
}
