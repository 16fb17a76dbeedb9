import type { IncomingMessage } from 'node:http';

/** A request header as the Fetch Headers give it: every occurrence, joined with ", " (Node keeps only the first Authorization). */
export function rawHeader(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  let out: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === name.length && raw[i].toLowerCase() === name) out = out === undefined ? raw[i + 1] : `${out}, ${raw[i + 1]}`;
  }
  return out;
}
