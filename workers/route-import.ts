// Council route files (.txt, 16 fields; .asc, 18 fields) to import payloads, in the data worker
// (organisation-and-routes 3 and 5 "Import of normal routes"). Field positions: docs/council-formats.md;
// samples in tests/fixtures/routes/.
import { DateTime, IANAZone } from 'luxon';
import { z } from 'zod';
import { MAX_IMPORT_READINGS, READING_MAX, routeImportSchema, SPECIAL_ROUTE_PREFIX, type ImportReading, type RouteImport } from '../src/contract/route.schema';
import type { CouncilFileEncoding } from '../src/contract/organisation.schema';

/** Section 5's messages, exactly. */
export const INCOMPLETE_LINE = 'incomplete line';
export const INCORRECT_FILE_FORMAT = 'Incorrect File Format';
/** The route name that becomes a generated special name (SP plus the current unix seconds). */
export const SPECIALREAD = 'SPECIALREAD';
/** A council file larger than this is refused before it is read (a 20,000-line file is about 4 MB). */
export const MAX_ROUTE_FILE_BYTES = 16 * 1024 * 1024;

/** Field positions (0-based) of one layout. */
export interface CouncilLayout {
  fields: number;
  route: number;
  sequence: number;
  ozone: number;
  serial: number;
  valuationRef: number;
  address: number;
  owner: number;
  location: number;
  additional: number;
  prevValue: number;
  prevDate: number;
  latitude: number;
  longitude: number;
}

/** `.txt`, the council format: 16 pipe-separated fields (positions 14 to 16 are read by nobody). */
export const TXT_LAYOUT: CouncilLayout = { fields: 16, route: 0, sequence: 1, ozone: 2, valuationRef: 3, address: 4, owner: 5, serial: 6, location: 7, prevValue: 8, prevDate: 9, additional: 10, latitude: 11, longitude: 12 };
/** `.asc`, the second format: 18 pipe-separated fields (positions 14 to 18 are read by nobody). */
export const ASC_LAYOUT: CouncilLayout = { fields: 18, route: 0, sequence: 1, ozone: 2, serial: 3, valuationRef: 4, address: 5, owner: 6, location: 7, additional: 8, prevValue: 9, prevDate: 10, latitude: 11, longitude: 12 };

export interface RouteFile {
  name: string;
  /** A File (a Blob) is best: its size is checked before a byte of it is read. */
  data: ArrayBuffer | Uint8Array | Blob;
}

/** The worker message's envelope (zod at the boundary): files by name with bytes or a Blob, and the options. */
const filesSchema = z.array(z.object({ name: z.string().min(1).max(500), data: z.union([z.instanceof(ArrayBuffer), z.instanceof(Uint8Array), z.instanceof(Blob)]) })).max(100);
const optionsSchema = z.object({
  timeZone: z.string().refine((tz) => IANAZone.isValidZone(tz), 'must be a known time zone'),
  organisationId: z.string().optional(),
  group: z.string().nullable().optional(),
  now: z.number().finite().optional(),
});

/** Throws a readable error when a worker message is not files and options. */
export function checkMessage<T>(files: T, opts: unknown, options: z.ZodType = optionsSchema): void {
  const f = filesSchema.safeParse(files);
  const o = options.safeParse(opts);
  const issue = !f.success ? f.error.issues[0] : !o.success ? o.error.issues[0] : null;
  if (issue) throw new Error(`Bad route-file request: ${[!f.success ? 'files' : 'options', ...issue.path].join('.')} ${issue.message}`);
}

export interface RouteImportOptions {
  /** The organisation's zone: a last read date is its local midnight. */
  timeZone: string;
  organisationId?: string;
  group?: string | null;
  /** Epoch ms (the SPECIALREAD name); default Date.now(). */
  now?: number;
  /** The organisation's council file encoding; default UTF-8 (src/domain/council-encoding.ts). */
  encoding?: CouncilFileEncoding;
}

/** A file's problem: the spec's message, and where and why for people fixing the file. */
export interface FileProblem {
  fileName: string;
  message: string;
  detail?: string;
}

export interface ParsedRouteFile {
  fileName: string;
  payload: RouteImport | null;
  problem: FileProblem | null;
}

export interface RouteFilesResult {
  /** One per file, in the order given; empty unless every file parsed. */
  payloads: RouteImport[];
  files: ParsedRouteFile[];
  problems: FileProblem[];
}

class FileError extends Error {
  constructor(
    readonly userMessage: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const bad = (detail: string) => new FileError(INCORRECT_FILE_FORMAT, detail);
const NOT_UTF8 = "the file is not UTF-8 text (if the council's files are Windows-1252, an admin can choose that encoding in the organisation's Settings, Details)";

/** The file's bytes, refused unread when larger than maxBytes. */
export async function bytesOf(data: ArrayBuffer | Uint8Array | Blob, maxBytes: number, tooLarge: (mb: number) => Error): Promise<Uint8Array> {
  const size = data instanceof Blob ? data.size : data.byteLength;
  if (size > maxBytes) throw tooLarge(Math.round(maxBytes / 1048576));
  if (data instanceof Blob) return new Uint8Array(await data.arrayBuffer());
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}

/**
 * Strict UTF-8 (a BOM is dropped). An organisation whose council files are Windows-1252 has
 * bytes that are not UTF-8 read as Windows-1252 (a file that is valid UTF-8 is UTF-8: plain
 * ASCII reads the same either way, and Windows-1252 text with accents is almost never valid
 * UTF-8). Anything else, or binary, is not a council file.
 */
export function decodeText(bytes: Uint8Array, encoding: CouncilFileEncoding = 'UTF-8'): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) throw bad('the file is UTF-16; save it as UTF-8 text');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    if (encoding !== 'Windows-1252') throw bad(NOT_UTF8);
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  if (text.includes('\u0000')) throw bad('the file holds binary data');
  return text;
}

/** Section 5: txt, the part before the segment starting with EXP; asc, the digits after the first underscore group. */
export function iterationFromName(fileName: string): string | null {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  if (/\.asc$/i.test(fileName)) return /^[^_]*_+(\d+)/.exec(base)?.[1] ?? null;
  const parts = base.split('_');
  const at = parts.findIndex((p) => /^EXP/i.test(p));
  return at > 0 && parts[at - 1] ? parts[at - 1] : null;
}

const INT = /^\d+$/;

/** A last read date: DD/MM/YYYY, DD-MM-YYYY or YYYY-MM-DD, as local midnight (epoch ms). */
export function parseReadDate(text: string, timeZone: string): number | null {
  let m = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(text);
  let y: number, mo: number, d: number;
  if (m) [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else if ((m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text))) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else return null;
  const dt = DateTime.fromObject({ year: y, month: mo, day: d }, { zone: timeZone });
  return dt.isValid && y >= 1900 ? dt.toMillis() : null;
}

function parseLine(f: string[], line: number, row: number, layout: CouncilLayout, timeZone: string): ImportReading {
  const at = (i: number) => f[i];
  const orUnknown = (i: number) => at(i) || 'Unknown';
  const ozone = at(layout.ozone);
  const serial = at(layout.serial);
  if (!ozone) throw bad(`line ${line}: the ozone number is missing`);
  if (!serial) throw bad(`line ${line}: the meter serial is missing`);
  const seqText = at(layout.sequence);
  if (seqText && !INT.test(seqText)) throw bad(`line ${line}: the sequence "${seqText}" is not a whole number`);
  const sequence = seqText ? Number(seqText) : row;
  let importedPrevReading: ImportReading['importedPrevReading'] = null;
  const dateText = at(layout.prevDate);
  const valueText = at(layout.prevValue);
  if (dateText) {
    const date = parseReadDate(dateText, timeZone);
    if (date === null) throw bad(`line ${line}: the last read date "${dateText}" is not a date (DD/MM/YYYY)`);
    if (valueText) {
      if (!INT.test(valueText) || Number(valueText) > READING_MAX) throw bad(`line ${line}: the previous reading "${valueText}" is not a whole number from 0 to ${READING_MAX}`);
      importedPrevReading = { value: Number(valueText), date };
    }
  }
  const coordinate = (i: number, max: number, what: string) => {
    const t = at(i);
    if (!t) return null;
    const v = Number(t);
    if (!/^-?\d+(\.\d+)?$/.test(t) || Math.abs(v) > max) throw bad(`line ${line}: the ${what} "${t}" is not a number from -${max} to ${max}`);
    return v;
  };
  return {
    sequence,
    ozoneNumber: ozone,
    importedPrevReading,
    serial,
    valuationRef: orUnknown(layout.valuationRef),
    propertyAddress: orUnknown(layout.address),
    ownerName: orUnknown(layout.owner),
    location: orUnknown(layout.location),
    additionalLocationInfo: at(layout.additional),
    latitude: coordinate(layout.latitude, 90, 'latitude'),
    longitude: coordinate(layout.longitude, 180, 'longitude'),
  };
}

/** One council file to one import payload (section 5); throws FileError. */
async function parseOne(file: RouteFile, opts: RouteImportOptions): Promise<RouteImport> {
  const layout = /\.txt$/i.test(file.name) ? TXT_LAYOUT : /\.asc$/i.test(file.name) ? ASC_LAYOUT : null;
  if (!layout) throw bad('only .txt and .asc files can be imported');
  const text = decodeText(await bytesOf(file.data, MAX_ROUTE_FILE_BYTES, (mb) => bad(`the file is larger than ${mb} MB`)), opts.encoding);
  const lines = text.split(/\r\n|\r|\n/);
  const readings: ImportReading[] = [];
  let routeName: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    const f = lines[i].split('|').map((s) => s.trim());
    if (f.length !== layout.fields) throw new FileError(INCOMPLETE_LINE, `line ${i + 1} has ${f.length} fields; a ${layout === TXT_LAYOUT ? '.txt' : '.asc'} line has ${layout.fields}`);
    if (readings.length >= MAX_IMPORT_READINGS) throw bad(`more than ${MAX_IMPORT_READINGS} readings in one file`);
    const name = f[layout.route];
    if (!name) throw bad(`line ${i + 1}: the route name is missing`);
    if (routeName === null) routeName = name;
    else if (name !== routeName) throw bad(`line ${i + 1}: route "${name}" differs from "${routeName}"; a file holds one route`);
    readings.push(parseLine(f, i + 1, readings.length + 1, layout, opts.timeZone));
  }
  if (routeName === null) throw bad('the file is empty');
  const now = opts.now ?? Date.now();
  const payload = {
    routeName: routeName === SPECIALREAD ? `${SPECIAL_ROUTE_PREFIX}${Math.floor(now / 1000)}` : routeName,
    isSpecial: false as const,
    group: opts.group ?? null,
    readings,
    iterationNumber: iterationFromName(file.name),
    ...(opts.organisationId ? { organisationId: opts.organisationId } : {}),
  };
  // the contract is the boundary: whatever it refuses (control characters, lengths) is a format error
  const checked = routeImportSchema.safeParse(payload);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const [, index, field] = issue.path;
    const where = typeof index === "number" ? `reading ${index + 1}, ${String(field)}` : issue.path.join(".");
    throw bad(`${where}: ${issue.message}`);
  }
  return checked.data;
}

/** Parses several council files at once: one payload per file, or each file's problem. */
export async function parseRouteFiles(files: readonly RouteFile[], opts: RouteImportOptions): Promise<RouteFilesResult> {
  checkMessage(files, opts);
  const parsed: ParsedRouteFile[] = [];
  for (const file of files) {
    try {
      parsed.push({ fileName: file.name, payload: await parseOne(file, opts), problem: null });
    } catch (err) {
      const e = err instanceof FileError ? err : bad(err instanceof Error ? err.message : String(err));
      parsed.push({ fileName: file.name, payload: null, problem: { fileName: file.name, message: e.userMessage, detail: e.detail } });
    }
  }
  const problems = parsed.flatMap((p) => (p.problem ? [p.problem] : []));
  return { payloads: problems.length ? [] : parsed.map((p) => p.payload!), files: parsed, problems };
}
