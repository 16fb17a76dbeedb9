import { encode as encodeWindows1252 } from 'windows-1252';
import type { CouncilFileEncoding } from '../contract/organisation.schema';

export { COUNCIL_FILE_ENCODINGS, type CouncilFileEncoding } from '../contract/organisation.schema';

/**
 * The character encoding of an organisation's council files (issue 36, item 24). UTF-8 is the
 * default and the modern choice; older council billing systems read Windows-1252 only, so an
 * organisation may choose it. It applies to the council results file (the .txt export) and to
 * reading council .txt/.asc imports; the CSV files stay UTF-8, which spreadsheets read either way.
 */
export const DEFAULT_COUNCIL_FILE_ENCODING: CouncilFileEncoding = 'UTF-8';

/** The MIME type of a council results file saved in the encoding. */
export const councilTextMime = (encoding: CouncilFileEncoding) => `text/plain;charset=${encoding === 'UTF-8' ? 'utf-8' : 'windows-1252'}`;

const ASTRAL = /[\u{10000}-\u{10FFFF}]/gu;
const REPLACEMENT = 0xfffd;
const QUESTION_MARK = 0x3f;

/**
 * The text's bytes in the encoding. Windows-1252 holds 251 characters; any other character (an
 * emoji, a macron on a vowel: ā) becomes '?', as Windows' own "save as ANSI" does, and is
 * counted so the caller can tell the user. Text is NFC-normalised first, so a decomposed é
 * (e + combining accent) is the single byte 0xE9.
 */
export function encodeCouncilText(text: string, encoding: CouncilFileEncoding): { bytes: Uint8Array; replaced: number } {
  if (encoding === 'UTF-8') return { bytes: new TextEncoder().encode(text), replaced: 0 };
  const wide = encodeWindows1252(text.normalize('NFC').replace(ASTRAL, '?'), { mode: 'replacement' });
  const bytes = new Uint8Array(wide.length);
  let replaced = 0;
  for (let i = 0; i < wide.length; i++) {
    const b = wide[i];
    if (b === REPLACEMENT) replaced++;
    bytes[i] = b === REPLACEMENT ? QUESTION_MARK : b;
  }
  // astral characters were replaced before encoding: count them too
  for (const _ of text.normalize('NFC').matchAll(ASTRAL)) replaced++;
  return { bytes, replaced };
}
