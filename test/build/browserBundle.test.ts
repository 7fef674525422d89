import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('the browser build of the client', () => {
  it('bundles for the browser without any module of the graphql package', async () => {
    const result = await build({
      entryPoints: [join(root, 'src', 'client', 'index.ts')],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((p) => p.includes('@urql/core'))).toBe(true);
    expect(inputs.filter((p) => /node_modules\/graphql\//.test(p))).toEqual([]);
    expect(inputs.filter((p) => /^node:|node_modules\/(undici|ws)\//.test(p))).toEqual([]);
    const gz = gzipSync(result.outputFiles[0]!.contents).length;
    // Size is measured in `npm run bench`; here only a sanity bound against accidental bloat.
    expect(gz).toBeLessThan(40_000);
  });

  it('carries no module of the rooms above the client (bulk runs, label-set plans, emulator, CLI) nor the model kit', async () => {
    const result = await build({
      stdin: {
        contents: "import { createLabelingClient } from './src/client/index.ts';\nexport const run = (url, token) => createLabelingClient({ url, token }).getProjectLabelSets('p', 'LABELER');",
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('src/client/client.ts');
    expect(inputs.filter((p) => /^src\/(?!client\/|shared\/)/.test(p))).toEqual([]);
  });

  it('carries each document once in an app that imports labelkit and labelkit/documents', async () => {
    const result = await build({
      stdin: {
        contents: [
          "import { createLabelingClient } from 'labelkit';",
          "import { GetCabinetDocument, GetJobsDocument } from 'labelkit/documents';",
          'export const run = (url, token) => { const c = createLabelingClient({ url, token }); return [c.getProjectLabelSets("p", "LABELER"), c.waitForJob("j"), c.request(GetCabinetDocument, { projectId: "p", role: "LABELER" }), c.request(GetJobsDocument, { jobIds: ["j"] })]; };',
        ].join('\n'),
        resolveDir: root,
        loader: 'ts',
      },
      // The package's entries, as packages/labelkit/package.json maps them (tsconfig.json's paths for the sources).
      alias: { labelkit: './src/client/index.ts', 'labelkit/documents': './generated/tags/graphql.ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const text = result.outputFiles[0]!.text;
    const count = (name: string) => text.split(`value:"${name}"`).length - 1;
    // Each operation's name occurs once: in its one document object.
    for (const name of ['GetCabinet', 'GetJobs', 'AutoLabelTokenBasedProjectMutation']) expect([name, count(name)]).toEqual([name, 1]);
  });
});
