// The client's types in a program that cannot see the graphql package, as in an app that installs
// labelkit alone (graphql is its optional peer, for types only): from the sources, in seconds, what
// test/build/packInstall.test.ts proves from the packed tarball in a fresh app. The compiler host
// resolves every module as usual except `graphql`, which it does not find (no file of the graphql
// package is in that program). Where graphql is installed, test/types/typedDocuments.test-d.ts pins
// the same errors.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { STRICT_NODENEXT } from '../support/codegenConfig.js';
import { cachedHost } from '../support/tsc.js';

const repo = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'labelkit-without-graphql-'));

const FILES = {
  'right.mts': `import { createLabelingClient } from 'labelkit';
import { GetCabinetDocument } from 'labelkit/documents';
import { GetCabinetLabelSetsByIdDocument } from 'labelkit/documents/labels';
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const proves = <T extends true>(proof: T): T => proof;
const client = createLabelingClient({ url: 'http://127.0.0.1:1/graphql', token: 't' });
const { getCabinet } = await client.request(GetCabinetDocument, { projectId: 'p', role: 'LABELER' });
proves<Equal<typeof getCabinet, { id: string }>>(true);
const { getCabinetLabelSetsById: sets } = await client.request(GetCabinetLabelSetsByIdDocument, { cabinetId: getCabinet.id });
proves<Equal<(typeof sets)[number]['labelItems'][number]['labelName'], string>>(true);
`,
  'wrong.mts': `import { createLabelingClient } from 'labelkit';
import { GetCabinetDocument } from 'labelkit/documents';
import { GetCabinetLabelSetsByIdDocument } from 'labelkit/documents/labels';
const client = createLabelingClient({ url: 'http://127.0.0.1:1/graphql', token: 't' });
const { getCabinet } = await client.request(GetCabinetDocument, { projectId: 'p', role: 'OWNER' }); // TS2322
await client.request(GetCabinetLabelSetsByIdDocument, { cabinetId: getCabinet.id, projectId: 'p' }); // TS2353
await client.request(GetCabinetLabelSetsByIdDocument); // TS2554
export const id: number = getCabinet.id; // TS2322
export const nope = getCabinet.name; // TS2339
`,
};

/** Each error as `file line TSxxxx` with graphql hidden from the program, and whether any file of graphql was read. */
function compile(): { errors: string[]; readGraphql: boolean } {
  const options: ts.CompilerOptions = {
    ...STRICT_NODENEXT,
    // The published names mean the sources, as in tsconfig.json.
    paths: {
      labelkit: [join(repo, 'src', 'client', 'index.ts')],
      'labelkit/documents': [join(repo, 'generated', 'tags', 'graphql.ts')],
      'labelkit/documents/labels': [join(repo, 'generated', 'labels', 'graphql.ts')],
    },
  };
  const host = cachedHost(options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions, sourceFile) =>
    literals.map((literal) =>
      literal.text === 'graphql'
        ? { resolvedModule: undefined }
        : ts.resolveModuleName(literal.text, containingFile, compilerOptions, host, undefined, redirected, ts.getModeForUsageLocation(sourceFile, literal, compilerOptions)),
    );
  const program = ts.createProgram(Object.keys(FILES).map((name) => join(dir, name)), options, host);
  const errors = ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? `${d.file.fileName.startsWith(dir) ? d.file.fileName.slice(dir.length + 1) : d.file.fileName} ${d.file.getLineAndCharacterOfPosition(d.start!).line + 1}` : 'options'} TS${d.code}`);
  return { errors, readGraphql: program.getSourceFiles().some((f) => f.fileName.includes('/node_modules/graphql/')) };
}

/** The codes the wrong file's comments name, in the form of {@link compile}'s errors. */
const WANTED = FILES['wrong.mts'].split('\n').flatMap((line, i) => [...line.matchAll(/\/\/ (TS\d+)/g)].map((m) => `wrong.mts ${i + 1} ${m[1]}`));

describe('client.request without the graphql package', () => {
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('types the variables and the result of labelkit/documents and labelkit/documents/labels', { timeout: 60_000 }, () => {
    expect(compile()).toEqual({ errors: WANTED, readGraphql: false });
  });
});
