// The two tiers of the suite (vitest.config.ts): `npm run test:quick` runs every test file but
// those listed in STARTS_PROCESSES, and must start no separate process. This reads each test file
// and what it imports (relative imports, transitively, through test/ and src/) and fails a file
// that reaches a module that starts processes but is not listed, or is listed and reaches none.
// And vitest no longer type-checks the type tests (*.test-d.ts) itself: typecheck.test.ts's tsc
// over tsconfig.json does, so every type test must be one of that program's files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SHARES_POSTGRES, STARTS_PROCESSES } from '../support/tiers.js';

const repo = join(import.meta.dirname, '..', '..');
const posix = (path: string) => path.split(sep).join('/');

/** Modules whose use starts a process: child processes (npm, tsc, the CLI, PostgreSQL's programs), Chromium, esbuild's service. */
const STARTERS = /^(node:)?child_process$|^playwright-core$|^esbuild$/;

const testFiles = readdirSync(join(repo, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.test.ts'))
  .map((path) => `test/${posix(path)}`)
  .sort();

const specifiers = new Map<string, string[]>();
/** What a file imports (static and dynamic imports, re-exports), as written. */
function specifiersOf(path: string): string[] {
  let found = specifiers.get(path);
  if (!found) {
    const text = readFileSync(join(repo, path), 'utf8');
    found = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]!);
    specifiers.set(path, found);
  }
  return found;
}

/** The bare module names `file` reaches through its relative imports (itself included), with the chain to the first of each. */
function reachedModules(file: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (path: string, chain: string[]) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const specifier of specifiersOf(path)) {
      if (specifier.startsWith('.')) {
        const target = posix(relative(repo, join(repo, dirname(path), specifier))).replace(/\.(m?)js$/, '.$1ts');
        const resolved = [target, target.replace(/\.ts$/, '.mjs'), target.replace(/\.ts$/, '.js')].find((p) => existsSync(join(repo, p)));
        if (resolved) walk(resolved, [...chain, resolved]);
      } else if (!found.has(specifier)) {
        found.set(specifier, chain);
      }
    }
  };
  walk(file, [file]);
  return found;
}

describe('the test tiers', () => {
  it('lists in STARTS_PROCESSES exactly the test files that reach a module that starts processes', () => {
    const starting = testFiles.filter((file) => [...reachedModules(file).keys()].some((name) => STARTERS.test(name)));
    const why = starting.map((file) => {
      const [name, chain] = [...reachedModules(file)].find(([n]) => STARTERS.test(n))!;
      return `${file}: ${name} (through ${chain.join(' → ')})`;
    });
    expect([...STARTS_PROCESSES].sort(), why.join('\n')).toEqual(starting);
  });

  it('shares the PostgreSQL cluster among files of STARTS_PROCESSES only, none of which stops or restarts it', () => {
    expect(SHARES_POSTGRES.filter((file) => !STARTS_PROCESSES.includes(file))).toEqual([]);
    for (const file of SHARES_POSTGRES) expect(readFileSync(join(repo, file), 'utf8'), file).not.toMatch(/cluster!?\.(restart|stop|start|hbaFirst)\(/);
  });

  it('sees a process-starting import through a helper (the check can fail)', () => {
    expect(reachedModules('test/cli/serverExit.test.ts').get('node:child_process')).toEqual(['test/cli/serverExit.test.ts', 'test/support/spawnCli.ts']);
    expect([...reachedModules('test/shared/redact.test.ts').keys()].some((name) => STARTERS.test(name))).toBe(false);
  });

  it('type-checks every type test (*.test-d.ts) in the whole project’s tsc (test/types/typecheck.test.ts)', () => {
    const config = ts.getParsedCommandLineOfConfigFile(join(repo, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } })!;
    const compiled = new Set(config.fileNames.map((f) => posix(relative(repo, f))));
    const typeTests = readdirSync(join(repo, 'test'), { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.test-d.ts')).map((p) => `test/${posix(p)}`);
    expect(typeTests.length).toBeGreaterThan(0);
    expect(typeTests.filter((file) => !compiled.has(file))).toEqual([]);
  });
});
