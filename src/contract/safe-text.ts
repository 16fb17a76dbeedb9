import { z } from 'zod';

/**
 * Text fields that make no sense with control characters (names, emails, ids, URLs, header
 * values). PostgreSQL cannot store NUL at all, and CR or LF in a header value would split it,
 * so these are refused at the boundary with a message naming the field (issue 9).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
export const CONTROL_CHARACTER_MESSAGE = 'must not contain control characters';

/**
 * A single-line string: no C0 control characters (tab, CR and LF included) and no DEL inside it.
 * Surrounding whitespace is left to the rules that trim (a pasted claim code may end in a newline).
 */
export const safeText = z.string().refine((v) => !CONTROL_CHARACTERS.test(v.trim()), CONTROL_CHARACTER_MESSAGE);

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Free text of several lines (a meter reader's notes): line breaks and tabs allowed, other control characters not. */
export const multilineText = z.string().refine((v) => !CONTROL_BUT_LINE_BREAKS.test(v), CONTROL_CHARACTER_MESSAGE);

/** Whether a string can be stored as PostgreSQL text: no NUL and no lone UTF-16 surrogate. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const storableText = (v: string) => !v.includes('\u0000') && !LONE_SURROGATE.test(v);

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A path or body id that is a UUID in the database. */
export const uuidSchema = z.string().regex(UUID_PATTERN, 'must be a UUID');

/** The latest epoch millisecond a JavaScript Date can hold: every time on the wire is at most this. */
export const MAX_TIME = 8.64e15;
