import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const importsOf = (dir: string) =>
  readdirSync(new URL(`../../src/${dir}/`, import.meta.url))
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [...readFileSync(new URL(`../../src/${dir}/${f}`, import.meta.url), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => `${f}: ${m[1]}`));

describe('the model kit', () => {
  it('imports nothing from the emulator or the CLI when its sources are read', () => {
    const imports = importsOf('model');
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((i) => /\/(emulator|cli)\//.test(i))).toEqual([]);
  });
});
