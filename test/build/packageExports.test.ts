// The package's entry points as a user meets them: `import 'labelkit/…'` resolved through
// package.json `exports` against the built dist/ (npm test builds before vitest runs).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | Record<string, string>> };
const entries = Object.entries(pkg.exports).filter((e): e is [string, Record<string, string>] => typeof e[1] === 'object');
const specifier = (subpath: string) => (subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`);

/** Runs an ES module in a child Node from the package root, where `labelkit/…` resolves to this package. */
async function runModule(source: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', source], { cwd: root, timeout: 20_000 });
  return stdout;
}

describe('package.json exports', () => {
  it('lists types first and points at built files when an entry point is declared', () => {
    expect(entries.map(([subpath]) => subpath)).toContain('./cli');
    for (const [, conditions] of entries) {
      expect(Object.keys(conditions)[0]).toBe('types');
      for (const file of Object.values(conditions)) expect(existsSync(join(root, file)), file).toBe(true);
    }
  });

  it('resolves each entry point to its declaration file when TypeScript imports it by package name', () => {
    const options: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
    for (const [subpath, conditions] of entries) {
      const resolved = ts.resolveModuleName(specifier(subpath), join(root, 'consumer.mts'), options, ts.sys).resolvedModule;
      expect(resolved?.resolvedFileName, subpath).toBe(join(root, conditions.types!));
    }
  });

  it('runs the README example of labelkit/cli against the emulator, and exports every runner, when pasted as a module', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### From code (`labelkit/cli`)'));
    const example = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toContain("from 'labelkit/cli'");
    // One child process for both checks: the example as printed, then the entry point's functions on a last line.
    const names = "const entry = await import('labelkit/cli'); console.log(Object.keys(entry).filter((k) => typeof entry[k] === 'function').join(' '));";
    const printed = (await runModule(`${example!}\n${names}`)).trim().split('\n');
    const exported = printed.pop()!.split(' ');
    // console.log may wrap the object over several lines; the README shows it on one.
    expect(printed.join(' ').replace(/\s+/g, ' ')).toBe("{ projectId: 'demo-project', role: 'LABELER', cabinetId: 'demo-project:labeler' }");
    expect(exported).toEqual(
      expect.arrayContaining(['runCabinet', 'runLabelSets', 'runAutoLabel', 'runJobs', 'runModelCheck', 'runEmulator', 'resolveConnection', 'createPrinter', 'processIo', 'CliUsageError', 'main']),
    );
  });
});
