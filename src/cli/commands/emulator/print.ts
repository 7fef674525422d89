import type { RunningEmulator } from '../../../emulator/index.js';
import type { Printer } from '../../io.js';

/** How many of the `--data` folder's projects the start banner names before "and N more". */
export const DATA_PROJECTS_SHOWN = 20;

/**
 * Prints how to connect to a running emulator.
 *
 * @param printer - where to print
 * @param emu - the emulator
 * @param options - `json`; `clientSecretEnv`: the variable the client secret came from (its
 * value is never printed); `dataDir`: the `--data` folder, whose projects the banner names (the
 * first {@link DATA_PROJECTS_SHOWN}, then how many more)
 * @remarks Prints `export LABELKIT_URL=…` and `export LABELKIT_TOKEN=…`: the token is the
 * emulator's own random test token, valid only for this process on this machine, so printing
 * it is how a user connects. A client secret given by the user is never printed; the one the
 * emulator generated is not printed either (the token is enough).
 */
export function printEmulatorStarted(printer: Printer, emu: RunningEmulator, options: { json: boolean; clientSecretEnv?: string; demoProjects?: number; dataDir?: string }): void {
  if (options.json) {
    printer.json({
      url: emu.url,
      baseUrl: emu.baseUrl,
      token: emu.token,
      clientId: emu.clientId,
      tokenUrl: `${emu.baseUrl}/api/oauth/token`,
      schemaGeneration: emu.emulator.schemaGeneration,
    });
    return;
  }
  printer.out(`labelkit emulator listening on ${emu.url}`);
  printer.out(
    emu.emulator.schemaGeneration === 'tags'
      ? "Schema: today's production (tagItems, tagName)."
      : 'Schema: after the rename (labelItems, labelName).',
  );
  printer.out('Connect from another shell with:');
  printer.out(`  export LABELKIT_URL=${emu.url}`);
  printer.out(`  export LABELKIT_TOKEN=${emu.token}   # a throwaway test token of this emulator only`);
  printer.out(
    `or with client credentials: LABELKIT_CLIENT_ID=${emu.clientId} and LABELKIT_CLIENT_SECRET=${
      options.clientSecretEnv ? `"$${options.clientSecretEnv}"` : '(generated; pass --client-secret-env to choose one)'
    }`,
  );
  printer.out(`Web pages: ${emu.baseUrl}/ (home: token, projects, jobs, results) and ${emu.url} (GraphiQL)`);
  const fromData = emu.emulator.dataProjects;
  if (options.dataDir !== undefined) {
    const shown = fromData.slice(0, DATA_PROJECTS_SHOWN).join(', ');
    const more = fromData.length > DATA_PROJECTS_SHOWN ? ` and ${fromData.length - DATA_PROJECTS_SHOWN} more` : '';
    printer.out(`Projects from ${options.dataDir} (${fromData.length}): ${fromData.length === 0 ? 'none' : `${shown}${more}`}`);
  }
  const n = options.demoProjects ?? 0;
  if (n > 0) {
    printer.out(`Demo projects: demo-project and demo-project-1 … demo-project-${n}; list them for auto-label with:`);
    printer.out(`  seq -f 'demo-project-%g' ${n} > projects.txt`);
    printer.out('Ctrl-C stops.');
  } else printer.out('Demo project: demo-project. Ctrl-C stops.');
}
