import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { glob } from 'tinyglobby';

/** One GraphQL text in an app: a whole `.graphql` file, or one tagged template of a code file. */
export interface DocumentText {
  /** The file, relative to the app's folder, with `/` separators. */
  file: string;
  /** The GraphQL text (a template's `${…}` blanked out, so that offsets stay the file's). */
  body: string;
  /** Where `body` starts in the file (0 for a `.graphql` file). */
  start: number;
}

/** Where the globs came from, for the first line of the output. */
export interface DocumentGlobs {
  globs: string[];
  /** `arguments`, the codegen configuration's file name, or `default`. */
  from: string;
}

/** The default when neither arguments nor a codegen configuration give globs. */
export const DEFAULT_GLOBS = ['**/*.graphql'];

/** Code files whose tagged templates are read. */
const CODE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** Codegen configurations, in the order graphql-codegen looks for them. */
const CODEGEN_FILES = ['codegen.ts', 'codegen.mts', 'codegen.cts', 'codegen.js', 'codegen.mjs', 'codegen.cjs', 'codegen.yml', 'codegen.yaml', 'codegen.json', '.graphqlrc.ts', '.graphqlrc.yml', '.graphqlrc.yaml', '.graphqlrc.json', '.graphqlrc'];

/**
 * The `documents` globs of the app's codegen configuration, read as text (a `codegen.ts` is not
 * run): the strings of its `documents:` value, a string or an array of strings.
 *
 * @param dir - the app's folder
 * @returns the globs and the file they came from, or undefined when no configuration names any
 */
export function codegenDocuments(dir: string): DocumentGlobs | undefined {
  for (const name of CODEGEN_FILES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    const value = /["']?documents["']?\s*:\s*(\[[^\]]*\]|"[^"\n]*"|'[^'\n]*'|[^\s,}\n][^,}\n]*)/.exec(text)?.[1];
    if (value === undefined) continue;
    const quoted = [...value.matchAll(/"([^"\n]*)"|'([^'\n]*)'/g)].map((m) => m[1] ?? m[2]!);
    const globs = quoted.length > 0 ? quoted : value.startsWith('[') ? [] : [value.trim()];
    const listed = /^\s*-\s*(.+)$/gm;
    // YAML's block list: `documents:` then `  - src/**/*.graphql` lines.
    if (globs.length === 0 && /\.ya?ml$|\.graphqlrc$/.test(name)) {
      const block = /documents\s*:\s*\n((?:\s*-\s*.+\n?)+)/.exec(text)?.[1] ?? '';
      for (const m of block.matchAll(listed)) globs.push(m[1]!.trim().replace(/^["']|["']$/g, ''));
    }
    if (globs.length > 0) return { globs, from: name };
  }
  return undefined;
}

/**
 * The app's codegen configuration file, as graphql-codegen finds it.
 *
 * @param dir - the app's folder
 * @returns its name (e.g. `codegen.ts`), or undefined when there is none
 */
export function codegenConfigFile(dir: string): string | undefined {
  return CODEGEN_FILES.find((name) => existsSync(join(dir, name)));
}

/** labelkit's SDL as the codegen configuration names it, in each generation. */
export const SCHEMA_FILES = { both: 'labelkit/schema.graphql', labels: 'labelkit/schema.labels.graphql' } as const;

/**
 * The files the globs match, node_modules left out.
 *
 * @param dir - the app's folder (globs are relative to it)
 * @param globs - glob patterns (a `!` pattern excludes)
 * @returns the paths relative to `dir`, sorted
 */
export async function documentFiles(dir: string, globs: readonly string[]): Promise<string[]> {
  const found = await glob([...globs], { cwd: dir, ignore: ['**/node_modules/**'], onlyFiles: true, dot: false });
  return found.map((f) => relative(dir, join(dir, f)).split('\\').join('/')).sort();
}

/**
 * The GraphQL texts of one file: the whole of a `.graphql` file, or each `graphql(`…`)` and
 * gql`…` tagged template of a code file.
 *
 * @param file - the path, relative to the app's folder
 * @param text - the file's contents
 * @returns the texts (none for a code file without a template)
 * @remarks A template's `${…}` (an interpolated fragment, as graphql-tag apps write them) is
 * blanked out with spaces, so that the offsets of what follows stay the file's; the fragment's
 * `...Name` spread is what is checked.
 */
export function documentTexts(file: string, text: string): DocumentText[] {
  if (!CODE.test(file)) return [{ file, body: text, start: 0 }];
  const found: DocumentText[] = [];
  const tag = /(?<![\w$.])(?:gql|graphql)\s*(?:\(\s*)?`/g;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    const start = m.index + m[0].length;
    let body = '';
    let i = start;
    for (; i < text.length && text[i] !== '`'; i++) {
      if (text[i] === '\\') {
        body += text[i]! + (text[i + 1] ?? '');
        i++;
      } else if (text[i] === '$' && text[i + 1] === '{') {
        let depth = 0;
        const from = i;
        for (; i < text.length; i++) {
          if (text[i] === '{') depth++;
          else if (text[i] === '}' && --depth === 0) break;
        }
        body += text.slice(from, i + 1).replace(/[^\n]/g, ' ');
      } else body += text[i];
    }
    found.push({ file, body, start });
    tag.lastIndex = i + 1;
  }
  return found;
}
