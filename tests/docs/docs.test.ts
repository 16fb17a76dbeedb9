// The documents stay true to the code: the configuration table lists exactly what the server reads,
// every `npm run` script they name exists, and every relative link (and its #anchor) resolves.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CONFIG_VARIABLES } from '../../server/config';
import { documentFiles, linksOf, anchorsOf, stripCode } from './markdown';

const root = resolve(import.meta.dirname, '../..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

/** Files under dir (recursively) whose names pass the filter, relative to the root. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const p = join(dir, name);
    if (statSync(join(root, p)).isDirectory()) out.push(...filesUnder(p, keep));
    else if (keep(name)) out.push(p);
  }
  return out;
}

/** Variables the server reads outside server/config.ts, as process.env.X (e.g. the PostgreSQL pool size). */
function directEnvReads(): string[] {
  const names = new Set<string>();
  for (const f of filesUnder('server', (n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
    for (const m of read(f).matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)) names.add(m[1] ?? m[2]);
  }
  return [...names];
}

/** The variables docs/configuration.md lists: the first column of its tables. */
function documentedVariables(): string[] {
  const names: string[] = [];
  for (const line of stripCode(read('docs/configuration.md')).split('\n')) {
    const first = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/.exec(line);
    if (first) names.push(first[1]);
  }
  return names;
}

describe('docs/configuration.md', () => {
  it('lists every variable the server reads, and reads every variable it lists', () => {
    const read = new Set([...CONFIG_VARIABLES, ...directEnvReads()]);
    const documented = documentedVariables();
    expect(documented.length, 'the table was parsed').toBeGreaterThan(20);
    expect([...read].filter((v) => !documented.includes(v)), 'read but not documented').toEqual([]);
    expect(documented.filter((v) => !read.has(v)), 'documented but not read').toEqual([]);
    expect(documented.filter((v, i) => documented.indexOf(v) !== i), 'listed twice').toEqual([]);
  });
});

describe('the documents', () => {
  const docs = documentFiles(root);

  it('are found', () => {
    expect(docs).toContain('README.md');
    expect(docs).toContain('docs/configuration.md');
  });

  it('stay within their lengths: the README a few screens, the benchmark notes short', () => {
    expect(read('README.md').length).toBeLessThanOrEqual(12_000);
    expect(read('bench/README.md').length).toBeLessThanOrEqual(20_000);
  });

  it('name only npm scripts that exist', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const missing: string[] = [];
    for (const doc of docs) {
      for (const m of read(doc).matchAll(/\bnpm (?:run(?:-script)? ([\w:.-]+)|(start|test)\b)/g)) {
        const name = m[1] ?? m[2];
        if (!scripts.includes(name)) missing.push(`${doc}: npm run ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const doc of docs) {
      for (const link of linksOf(read(doc))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
        const [path, anchor] = link.split('#');
        const target = path === '' ? join(root, doc) : resolve(dirname(join(root, doc)), decodeURIComponent(path));
        if (!existsSync(target)) {
          broken.push(`${doc}: ${link} (no ${relative(root, target)})`);
          continue;
        }
        if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).includes(anchor)) broken.push(`${doc}: ${link} (no heading #${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
