// Just enough Markdown for checking documents: which files, their links, their headings' anchors.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's documents, relative to its root: README.md, docs/*.md, bench/README.md, wasm-core/README.md. */
export function documentFiles(root: string): string[] {
  const docs = existsSync(join(root, 'docs')) ? readdirSync(join(root, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`) : [];
  return ['README.md', ...docs, 'bench/README.md', 'wasm-core/README.md'].filter((p) => existsSync(join(root, p)));
}

/** The text without fenced code blocks and inline code spans (links and headings there are not links). */
export function stripCode(md: string): string {
  return md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** Targets of inline links and images: [text](target) and ![alt](target "title"). */
export function linksOf(md: string): string[] {
  const text = stripCode(md).replace(/`[^`\n]*`/g, (code) => (code.includes('](') ? '' : code));
  return [...text.matchAll(/!?\[(?:[^\]\n]|\][^(])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

/** GitHub's anchors for the headings of a document (lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
export function anchorsOf(md: string): string[] {
  const seen = new Map<string, number>();
  const out: string[] = [];
  for (const m of stripCode(md).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.push(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}
