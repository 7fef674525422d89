import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/client/index.js';

const manifest = async (name: string) =>
  JSON.parse(await readFile(join(import.meta.dirname, '..', '..', 'packages', name, 'package.json'), 'utf8')) as { version: string; dependencies?: Record<string, string> };

describe('VERSION', () => {
  it('equals the version of both packages, and labelkit-tools depends on exactly that labelkit', async () => {
    const [labelkit, tools] = await Promise.all([manifest('labelkit'), manifest('labelkit-tools')]);
    expect(VERSION).toBe(labelkit.version);
    expect(tools.version).toBe(labelkit.version);
    expect(tools.dependencies?.labelkit).toBe(labelkit.version);
  });
});
