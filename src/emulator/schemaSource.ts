import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The SDL the emulator serves: the package's own schema.graphql, found from this module both
 * in `src/emulator/` (tests) and in `dist/src/emulator/` (the built package).
 */
export function loadSchemaSource(): string {
  for (const up of ['../../schema.graphql', '../../../schema.graphql']) {
    const path = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(path)) return readFileSync(path, 'utf8');
  }
  throw new Error('labelkit emulator: schema.graphql not found beside the package');
}
