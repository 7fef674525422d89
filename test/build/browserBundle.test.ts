import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
// The package's entries, as packages/labelkit/package.json maps them (tsconfig.json's paths for the sources).
const ENTRIES = { labelkit: './src/client/index.ts', 'labelkit/documents': './generated/tags/graphql.ts', 'labelkit/labels': './src/labels/index.ts' };

/** A minified browser bundle, as an app's bundler makes one, of the client's entry or of an app's code. */
const browserBuild = (input: { entry: string } | { app: string }) =>
  build({
    ...('entry' in input ? { entryPoints: [input.entry] } : { stdin: { contents: input.app, resolveDir: root, loader: 'ts' as const }, alias: ENTRIES }),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });

describe('the browser build of the client', () => {
  it('bundles for the browser without any module of the graphql package', async () => {
    const result = await browserBuild({ entry: join(root, 'src', 'client', 'index.ts') });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((p) => p.includes('@urql/core'))).toBe(true);
    expect(inputs.filter((p) => /node_modules\/graphql\//.test(p))).toEqual([]);
    expect(inputs.filter((p) => /^node:|node_modules\/(undici|ws)\//.test(p))).toEqual([]);
    const gz = gzipSync(result.outputFiles[0]!.contents).length;
    // Size is measured in `npm run bench`; here only a sanity bound against accidental bloat.
    expect(gz).toBeLessThan(40_000);
  });

  it('carries no module of the rooms above the client (bulk runs, label-set plans, emulator, CLI) nor the model kit', async () => {
    const result = await browserBuild({
      app: "import { createLabelingClient, getProjectLabelSets, startAutoLabel, waitForJob } from 'labelkit';\nexport const run = (url, token, input) => { const c = createLabelingClient({ url, token }); return [getProjectLabelSets(c, 'p', 'LABELER'), startAutoLabel(c, input), waitForJob(c, 'j')]; };",
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('src/client/client.ts');
    expect(inputs.filter((p) => /^src\/(?!client\/|shared\/)/.test(p))).toEqual([]);
  });

  it('bundles labelkit/labels (reading a project back) for the browser over the same client, without graphql or Node built-ins', async () => {
    const result = await browserBuild({
      app: [
        "import { createLabelingClient } from 'labelkit';",
        "import { buildLabelTree, findCopies, readLabelsOfDocuments } from 'labelkit/labels';",
        "export const run = (url, token) => { const c = createLabelingClient({ url, token }); return [findCopies(c, 'p'), readLabelsOfDocuments(c, ['d']), buildLabelTree];  };",
      ].join('\n'),
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toEqual(expect.arrayContaining(['src/labels/readLabels.ts', 'src/labels/readAhead.ts', 'src/labels/copies.ts', 'src/client/client.ts']));
    expect(inputs.filter((p) => /node_modules\/graphql\//.test(p))).toEqual([]);
    expect(inputs.filter((p) => /^node:|node_modules\/(undici|ws)\//.test(p))).toEqual([]);
    // One client: the labels' own `labelkit` import is the app's, not a second copy of the package.
    expect(inputs.filter((p) => p.includes('packages/labelkit/'))).toEqual([]);
  });

  it('carries each document once in an app that imports labelkit and labelkit/documents', async () => {
    const result = await browserBuild({
      app: [
        "import { createLabelingClient, getProjectLabelSets, startAutoLabel, waitForJob } from 'labelkit';",
        "import { GetCabinetDocument, GetJobsDocument } from 'labelkit/documents';",
        'export const run = (url, token, input) => { const c = createLabelingClient({ url, token }); return [getProjectLabelSets(c, "p", "LABELER"), startAutoLabel(c, input), waitForJob(c, "j"), c.request(GetCabinetDocument, { projectId: "p", role: "LABELER" }), c.request(GetJobsDocument, { jobIds: ["j"] })]; };',
      ].join('\n'),
    });
    const text = result.outputFiles[0]!.text;
    const count = (name: string) => text.split(`value:"${name}"`).length - 1;
    // Each operation's name occurs once: in its one document object.
    for (const name of ['GetCabinet', 'GetJobs', 'AutoLabelTokenBasedProjectMutation']) expect([name, count(name)]).toEqual([name, 1]);
  });

  it('ships the redactor without its own-text machinery (the CLI’s wording kept apart from values), which no client code writes', async () => {
    const result = await browserBuild({
      app: "import { createLabelingClient, getProjectLabelSets, startAutoLabel, waitForJob } from 'labelkit';\nexport const run = (url, token, input) => { const c = createLabelingClient({ url, token }); return [getProjectLabelSets(c, 'p', 'LABELER'), startAutoLabel(c, input), waitForJob(c, 'j')]; };",
    });
    const text = result.outputFiles[0]!.text;
    // The redactor is there (its credential pattern), an own text's parts are not (property names outlive minifying).
    expect(text.includes('(Bearer|Basic)')).toBe(true);
    expect(/.{0,60}\.fixed\b.{0,60}/.exec(text)?.[0]).toBeUndefined();
  });

  it('ships no token refresh and no rename switch in a static-token app that runs one request, and both once a factory or a label-set helper is imported', async () => {
    const shipped = async (contents: string) => {
      const result = await browserBuild({ app: contents });
      // Modules with code left after tree-shaking (the metafile's inputs list every module read).
      const output = Object.values(result.metafile.outputs)[0]!;
      return Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path);
    };
    const refreshOrSwitch = (paths: string[]) => paths.filter((p) => /@urql\/exchange-auth|src\/client\/(auth|renameSwitch)\.ts|generated\/labels\//.test(p));
    const oneRequest = await shipped(
      "import { createLabelingClient } from 'labelkit';\nimport { GetCabinetDocument } from 'labelkit/documents';\nexport const run = (url, token) => createLabelingClient({ url, token }).request(GetCabinetDocument, { projectId: 'p', role: 'LABELER' });",
    );
    expect(oneRequest).toContain('src/client/callRunner.ts');
    expect(refreshOrSwitch(oneRequest)).toEqual([]);
    const refreshing = await shipped("import { clientCredentials, createLabelingClient } from 'labelkit';\nexport const run = (url, clientSecret) => createLabelingClient({ url, auth: clientCredentials({ clientId: 'id', clientSecret }) });");
    expect(refreshOrSwitch(refreshing).some((p) => p.includes('@urql/exchange-auth'))).toBe(true);
    expect(refreshOrSwitch(refreshing)).toContain('src/client/auth.ts');
    const labelSets = await shipped("import { createLabelingClient, getProjectLabelSets } from 'labelkit';\nexport const run = (url, token) => getProjectLabelSets(createLabelingClient({ url, token }), 'p', 'LABELER');");
    expect(refreshOrSwitch(labelSets)).toEqual(expect.arrayContaining(['src/client/renameSwitch.ts', 'generated/labels/graphql.ts']));
    expect(labelSets.filter((p) => p.includes('@urql/exchange-auth'))).toEqual([]);
  });
});
