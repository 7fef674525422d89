// The two packages' entry points as the checkout meets them: `import 'labelkit/…'` and
// `import 'labelkit-tools/…'` resolved through package.json `exports` against the built dist/
// (npm test builds before vitest runs; node_modules/labelkit* are the workspace links).
// test/build/packInstall.test.ts does the same from tarballs installed in empty folders.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as sourceClient from '../../src/client/index.js';
import * as sourceModel from '../../src/model/index.js';

const root = join(import.meta.dirname, '..', '..');

interface Manifest {
  name: string;
  version: string;
  exports: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
  engines?: { node?: string };
}

const manifests = ['labelkit', 'labelkit-tools'].map((dir) => ({
  dir: join(root, 'packages', dir),
  pkg: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest,
}));
const entriesOf = (pkg: Manifest) => Object.entries(pkg.exports).filter((e): e is [string, Record<string, string>] => typeof e[1] === 'object');
const specifier = (pkg: Manifest, subpath: string) => (subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`);

describe.each(manifests)('packages/$pkg.name', ({ dir, pkg }) => {
  it('lists types first and points at built files for each entry point', () => {
    expect(entriesOf(pkg).length).toBeGreaterThan(0);
    for (const [, conditions] of entriesOf(pkg)) {
      // labelkit: `default` too, the same ES module, which a CommonJS app's require loads (Node
      // 20.19+, as its engines say); with `import` alone, require fails ERR_PACKAGE_PATH_NOT_EXPORTED.
      expect(Object.keys(conditions)).toEqual(pkg.name === 'labelkit' ? ['types', 'import', 'default'] : ['types', 'import']);
      if (pkg.name === 'labelkit') expect(conditions.default).toBe(conditions.import);
      for (const file of Object.values(conditions)) expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(pkg.exports['./package.json']).toBe('./package.json');
  });

  it('resolves each entry point to its declaration file when TypeScript imports it by package name', () => {
    for (const moduleResolution of [ts.ModuleResolutionKind.NodeNext, ts.ModuleResolutionKind.Bundler]) {
      const options: ts.CompilerOptions = { module: moduleResolution === ts.ModuleResolutionKind.Bundler ? ts.ModuleKind.ESNext : ts.ModuleKind.NodeNext, moduleResolution };
      for (const [subpath, conditions] of entriesOf(pkg)) {
        const resolved = ts.resolveModuleName(specifier(pkg, subpath), join(root, 'consumer.mts'), options, ts.sys).resolvedModule;
        // Through the workspace link: node_modules/<name> → packages/<name>.
        expect(resolved && ts.sys.realpath!(resolved.resolvedFileName), `${subpath} (${moduleResolution})`).toBe(join(dir, conditions.types!));
      }
    }
  });

  it.runIf(pkg.name === 'labelkit')('loads every entry point from CommonJS with require, as it imports them', async () => {
    const specifiers = entriesOf(pkg).map(([subpath]) => specifier(pkg, subpath));
    const source = `for (const s of ${JSON.stringify(specifiers)}) console.log(s + ' ' + Object.keys(require(s)).filter((k) => k !== '__esModule' && k !== 'module.exports').sort().join(','));`;
    const required = await promisify(execFile)(process.execPath, ['--input-type=commonjs', '-e', source], { cwd: root, timeout: 20_000 });
    const imported = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', `for (const s of ${JSON.stringify(specifiers)}) console.log(s + ' ' + Object.keys(await import(s)).sort().join(','));`], { cwd: root, timeout: 20_000 });
    expect(required.stderr).toBe('');
    expect(required.stdout).toBe(imported.stdout);
    expect(pkg.engines?.node).toBe('^20.19.0 || >=22.12.0');
  });

  it('loads every entry point in Node and lists what each exports', async () => {
    const specifiers = entriesOf(pkg).map(([subpath]) => specifier(pkg, subpath));
    const source = `for (const s of ${JSON.stringify(specifiers)}) { const m = await import(s); console.log(s + ' ' + Object.keys(m).sort().join(',')); }`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', source], { cwd: root, timeout: 20_000 });
    const loaded = Object.fromEntries(stdout.trim().split('\n').map((line) => line.split(' ') as [string, string]));
    expect(Object.keys(loaded)).toEqual(specifiers);
    for (const names of Object.values(loaded)) expect(names.length).toBeGreaterThan(0);
  });
});

describe('the published names inside the checkout', () => {
  it('mean the sources in tests, as tsconfig paths make them mean for tsc and tsx', async () => {
    expect(await import('labelkit')).toBe(sourceClient);
    expect(await import('labelkit/model')).toBe(sourceModel);
    expect(await import('labelkit/documents')).toBe(await import('../../generated/tags/graphql.js'));
    expect(await import('labelkit/documents/labels')).toBe(await import('../../generated/labels/graphql.js'));
  });

  it('give labelkit-tools the same version as labelkit, which it depends on exactly', () => {
    const [client, tools] = manifests.map((m) => m.pkg);
    expect(tools!.dependencies).toEqual({ labelkit: client!.version });
  });
});
