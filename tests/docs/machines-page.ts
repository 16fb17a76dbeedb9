// docs/machines.md, generated from the machines themselves (npm run docs:machines): each machine's
// states and events as a Mermaid state diagram, the rules it models (machine-rules.ts) and its model
// test files. tests/docs/machines-page.test.ts fails when the page is out of date.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { MACHINE_RULES } from './machine-rules';
import { GUIDE } from './machines-guide';
import { MODEL_PATHS } from './machine-paths';

const root = resolve(import.meta.dirname, '../..');
export const PAGE = join(root, 'docs/machines.md');

interface Node {
  key: string;
  id: string;
  type: string;
  initial?: { target: Node[] };
  states: Record<string, Node>;
  transitions: Map<string, { eventType: string; target?: Node[]; guard?: unknown }[]>;
  always?: { target?: Node[]; guard?: unknown }[];
}

const mid = (n: Node) => n.id.replace(/[^A-Za-z0-9]/g, '_');

function guardName(g: unknown): string {
  if (!g) return '';
  if (typeof g === 'string') return g;
  if (typeof g === 'object' && 'type' in g) return String((g as { type: unknown }).type);
  if (typeof g === 'function') {
    // and(), or() and not() from xstate keep their parts
    const parts = (g as { guards?: unknown[] }).guards;
    const op = g.name === 'and' || g.name === 'or' ? g.name : g.name === 'not' ? 'not' : '';
    if (parts && op === 'not') return `not ${guardName(parts[0])}`;
    if (parts && op) return parts.map(guardName).join(` ${op} `);
    return 'guarded';
  }
  return 'guarded';
}

function eventLabel(type: string): string {
  if (type.startsWith('xstate.done.actor.')) return 'done';
  if (type.startsWith('xstate.error.actor.')) return 'error';
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  if (after) return `after ${/^\d+$/.test(after[1]) ? `${after[1]} ms` : after[1]}`;
  if (type.startsWith('xstate.done.state.')) return 'done';
  return type;
}

/** The machine's states and transitions as a Mermaid stateDiagram-v2. */
export function mermaid(machine: AnyStateMachine): string {
  const top = machine.root as unknown as Node;
  const lines = ['stateDiagram-v2'];
  const edges: string[] = [];
  const declare = (n: Node, pad: string) => {
    const kids = Object.values(n.states);
    if (n.initial?.target?.[0]) lines.push(`${pad}[*] --> ${mid(n.initial.target[0])}`);
    for (const c of kids) {
      if (Object.keys(c.states).length) {
        lines.push(`${pad}state "${c.key}" as ${mid(c)} {`);
        declare(c, pad + '  ');
        lines.push(`${pad}}`);
      } else lines.push(`${pad}state "${c.key}" as ${mid(c)}`);
      if (c.type === 'final') lines.push(`${pad}${mid(c)} --> [*]`);
    }
  };
  const walk = (n: Node) => {
    for (const [type, defs] of n.transitions) {
      for (const d of defs) {
        for (const t of d.target ?? []) {
          const g = guardName(d.guard);
          edges.push(`  ${mid(n)} --> ${mid(t)}: ${eventLabel(type)}${g ? ` [${g}]` : ''}`);
        }
      }
    }
    for (const d of n.always ?? []) for (const t of d.target ?? []) edges.push(`  ${mid(n)} --> ${mid(t)}: always${guardName(d.guard) ? ` [${guardName(d.guard)}]` : ''}`);
    Object.values(n.states).forEach(walk);
  };
  declare(top, '  ');
  walk(top);
  return [...lines, ...[...new Set(edges)]].join('\n');
}

/** Every machine file's exported machines, by file name. */
export async function loadMachines(): Promise<Map<string, AnyStateMachine[]>> {
  const out = new Map<string, AnyStateMachine[]>();
  for (const file of readdirSync(join(root, 'machines')).filter((f) => f.endsWith('.machine.ts')).sort()) {
    const mod = (await import(pathToFileURL(join(root, 'machines', file)).href)) as Record<string, unknown>;
    const machines = Object.values(mod).filter((v): v is AnyStateMachine => !!v && typeof v === 'object' && 'root' in v && 'config' in v && 'provide' in v);
    out.set(file, machines);
  }
  return out;
}

/** Which model test files drive each machine (they import it). */
export function testFilesOf(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of readdirSync(join(root, 'tests/machines')).filter((n) => /\.test\.tsx?$/.test(n)).sort()) {
    for (const m of new Set(readFileSync(join(root, 'tests/machines', f), 'utf8').match(/machines\/[\w-]+\.machine(?=['"])/g) ?? [])) (out[`${m.slice(9)}.ts`] ??= []).push(`tests/machines/${f}`);
  }
  return out;
}

/** ' (N paths)' after a model test file, or ' (case: N paths; ...)' where it walks several models (machine-paths.ts). */
function pathCount(file: string): string {
  const stem = file.replace(/^.*\//, '').replace(/\.machine\.test\.tsx?$/, '');
  const entries = Object.entries(MODEL_PATHS).filter(([k]) => k === stem || k.startsWith(`${stem} (`));
  const n = (v: number) => `${v.toLocaleString('en-GB')} paths`;
  if (entries.length === 0) return '';
  if (entries.length === 1 && entries[0][0] === stem) return ` (${n(entries[0][1])})`;
  return ` (${entries.map(([k, v]) => `${k.slice(stem.length + 2, -1)}: ${n(v)}`).join('; ')})`;
}

/** The whole page. */
export async function buildPage(): Promise<string> {
  const machines = await loadMachines();
  const tests = testFilesOf();
  const parts = [
    '# Machines',
    '',
    '<!-- Generated by `npm run docs:machines` from machines/*.machine.ts and tests/docs/machine-rules.ts; do not edit by hand. -->',
    '',
    'Every part of the client with real states is an XState machine in [`machines/`](../machines/): side effects are named actors and delays, supplied at the app edge and replaced in tests. Each machine has a model test in [`tests/machines/`](../tests/machines/) whose model is written by hand from the requirements, never derived from the machine.',
    '',
    GUIDE,
  ];
  for (const [file, ms] of machines) {
    const rules = MACHINE_RULES[file];
    if (!rules) throw new Error(`machines/${file} has no rules in tests/docs/machine-rules.ts: add the requirements it models there`);
    parts.push('', `## ${file.replace(/\.machine\.ts$/, '')}`, '');
    const files = tests[file] ?? [];
    parts.push(`Machine: [\`machines/${file}\`](../machines/${file}). ${files.length ? `Model test: ${files.map((f) => `[\`${f}\`](../${f})${pathCount(f)}`).join(', ')}.` : 'No model test.'}`, '');
    parts.push('Rules it models:', '', ...rules.map((r) => `- ${r}`));
    for (const m of ms) parts.push('', ...(ms.length > 1 ? [`\`${m.id}\`:`, ''] : []), '```mermaid', mermaid(m), '```');
  }
  return parts.join('\n') + '\n';
}

if (process.argv.includes('--write')) {
  writeFileSync(PAGE, await buildPage());
  console.log(`wrote ${PAGE}`);
}
