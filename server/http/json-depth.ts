/**
 * How deep client JSON may nest. No contract here goes past 5 levels (a route import's readings,
 * a webhook's headers); 64 is generous for all of them and far below what a recursive walk over
 * the parsed value (or a stack) could be troubled by.
 */
export const MAX_JSON_DEPTH = 64;

export const TOO_DEEP_MESSAGE = `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether `text` opens more than `limit` arrays or objects inside each other, brackets inside
 * strings not counted. One linear pass over the characters, no parse and no recursion, so it runs
 * before anything walks the value; it does not check the rest of the syntax (JSON.parse does).
 */
export function jsonTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === BACKSLASH) i++;
      else if (ch === QUOTE) inString = false;
    } else if (ch === QUOTE) inString = true;
    else if (ch === OPEN_ARRAY || ch === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (ch === CLOSE_ARRAY || ch === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** Thrown by parseClientJson for a body nested past MAX_JSON_DEPTH (a SyntaxError is bad JSON). */
export class JsonTooDeep extends Error {
  constructor() {
    super(TOO_DEEP_MESSAGE);
  }
}

/** JSON.parse for text a client wrote: nesting past MAX_JSON_DEPTH is refused before the parse. */
export function parseClientJson(text: string): unknown {
  if (jsonTooDeep(text)) throw new JsonTooDeep();
  return JSON.parse(text);
}
