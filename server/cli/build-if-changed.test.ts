import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { STAMP, buildInputsHash, buildIsCurrent } from './build-if-changed';

describe('npm start reuses a build whose inputs are unchanged (issue 34)', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const repo = () => {
    const root = mkdtempSync(join(tmpdir(), 'tw-build-'));
    dirs.push(root);
    const put = (file: string, text: string) => {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    };
    put('src/app/main.tsx', 'render()');
    put('src/app/main.test.tsx', 'test()');
    put('wasm-core/assembly/index.ts', 'export function f(): i32 { return 1 }');
    put('wasm-core/build/core.wasm', 'wasm');
    put('index.html', '<div id="root"></div>');
    put('vite.config.ts', 'export default {}');
    put('package-lock.json', '{}');
    put('dist/index.html', '<div id="root"></div>');
    return { root, put };
  };

  it('changes the hash with any input (a source, the page, the lock file, a new top-level page) and not with tests or outputs', () => {
    const { root, put } = repo();
    const first = buildInputsHash(root);
    expect(buildInputsHash(root)).toBe(first);
    put('src/app/main.test.tsx', 'test(2)');
    put('wasm-core/build/core.wasm', 'wasm 2');
    put('dist/assets/x.js', 'built');
    expect(buildInputsHash(root)).toBe(first);
    const changes: [string, string][] = [
      ['src/app/main.tsx', 'render(2)'],
      ['wasm-core/assembly/index.ts', 'export function f(): i32 { return 2 }'],
      ['index.html', '<div id="app"></div>'],
      ['package-lock.json', '{"v":2}'],
      ['vite.config.ts', 'export default { base: "/" }'],
      ['reader.html', '<div id="reader"></div>'],
      ['src/app/new-file.ts', ''],
    ];
    const seen = new Set([first]);
    for (const [file, text] of changes) {
      put(file, text);
      const h = buildInputsHash(root);
      expect(seen.has(h), file).toBe(false);
      seen.add(h);
    }
  });

  it('calls a build current only with its stamp matching, its page and the compiled core present', () => {
    const { root, put } = repo();
    const dist = join(root, 'dist');
    const hash = buildInputsHash(root);
    expect(buildIsCurrent(root, dist, hash)).toBe(false); // never stamped
    put(`dist/${STAMP}`, `${hash}\n`);
    expect(buildIsCurrent(root, dist, hash)).toBe(true);
    put('src/app/main.tsx', 'changed');
    expect(buildIsCurrent(root, dist, buildInputsHash(root))).toBe(false);
    put(`dist/${STAMP}`, `${buildInputsHash(root)}\n`);
    expect(buildIsCurrent(root, dist, buildInputsHash(root))).toBe(true);
    rmSync(join(root, 'wasm-core/build/core.wasm'));
    expect(buildIsCurrent(root, dist, buildInputsHash(root))).toBe(false);
  });
});
