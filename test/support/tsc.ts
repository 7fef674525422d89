// `tsc -p CONFIG` in the test's own process, for the tests that compile small projects several
// times (test/build/importerApp.test.ts, test/build/packInstall.test.ts): the same compiler (this
// checkout's `typescript`, which node_modules/.bin/tsc runs), the same steps and the same output
// as the command, without a process and without parsing the same files again. A program is made
// for each call, so each call type-checks everything it would as a command; only the parsed
// source files are kept ({@link cachedHost}: by name, text and the options that change a parse; a
// file whose text changed is parsed again), so a second compile of a project, or of another one
// with such options alike, reuses the parsed lib, @types/node and package declarations of the
// first. The cache lives as long as the worker process; each entry is a file's syntax tree. The
// in-memory compiles of the type tests (readmeTsBlocks, withoutGraphql) take their host here too.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import ts from 'typescript';

export interface TscRun {
  /** tsc's exit status: 0, 1 (errors, nothing written) or 2 (errors, files written). */
  code: number;
  /** What tsc prints off a terminal: one `file(line,col): error TSxxxx: …` per diagnostic. */
  output: string;
}

/**
 * The parsed source files of every program made here: TypeScript's document registry (as its
 * language service shares files between projects), which keys a file by name, the compiler
 * options that change how it parses or binds, and its version (a digest of its text, so an edited
 * file is parsed again).
 */
const registry = ts.createDocumentRegistry();

/**
 * A compiler host for `options` whose source files come from the one cache of this process: the
 * lib, Node's types and the sources parse once however many programs read them. A caller may
 * replace other members (module resolution) on the host it gets.
 *
 * @param options - the program's compiler options
 * @returns a new host
 */
export function cachedHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError) => {
    const text = host.readFile(fileName);
    if (text === undefined) {
      onError?.(`Cannot read file '${fileName}'.`);
      return undefined;
    }
    const fileOptions = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
    const version = createHash('sha1').update(text).digest('hex');
    return registry.acquireDocument(fileName, options, ts.ScriptSnapshot.fromString(text), version, undefined, fileOptions);
  };
  return host;
}

/**
 * Runs what `tsc -p configFile` runs in `dir` (config errors, syntax, options, global and semantic
 * diagnostics, then emit, sorted and deduplicated as tsc reports them), formatted as tsc formats
 * them without a terminal, with paths relative to `dir`.
 *
 * @param dir - the folder tsc would run in
 * @param configFile - the tsconfig, relative to `dir`
 * @returns the exit status and the output tsc would print
 */
export function tsc(dir: string, configFile = 'tsconfig.json'): TscRun {
  const diagnostics: ts.Diagnostic[] = [];
  const system: ts.ParseConfigFileHost = {
    ...ts.sys,
    getCurrentDirectory: () => dir,
    onUnRecoverableConfigFileDiagnostic: (d) => diagnostics.push(d),
  };
  const config = ts.getParsedCommandLineOfConfigFile(resolve(dir, configFile), {}, system);
  const format: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' };
  if (!config) return { code: 1, output: ts.formatDiagnostics(diagnostics, format) };

  const host = cachedHost(config.options);
  host.getCurrentDirectory = () => dir;

  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host,
    configFileParsingDiagnostics: config.errors,
    ...(config.projectReferences && { projectReferences: config.projectReferences }),
  });
  // The order of tsc's emitFilesAndReportErrors: syntax first; the rest only when the syntax is sound.
  const all = [...program.getConfigFileParsingDiagnostics()];
  const configCount = all.length;
  all.push(...program.getSyntacticDiagnostics());
  if (all.length === configCount) {
    all.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    if (all.length === configCount) all.push(...program.getSemanticDiagnostics());
    const declarations = config.options.declaration === true || config.options.composite === true;
    if (config.options.noEmit && declarations && all.length === configCount) all.push(...program.getDeclarationDiagnostics());
  }
  const emitted = program.emit();
  all.push(...emitted.diagnostics);
  const reported = [...diagnostics, ...ts.sortAndDeduplicateDiagnostics(all)];
  const code = reported.length === 0 ? 0 : emitted.emitSkipped ? 1 : 2;
  return { code, output: ts.formatDiagnostics(reported, format) };
}
