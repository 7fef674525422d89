import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pc from 'picocolors';
import {
  buildClientSchema,
  buildSchema,
  GraphQLError,
  Kind,
  NoDeprecatedCustomRule,
  NoUnusedFragmentsRule,
  parse,
  Source,
  specifiedRules,
  validate,
  visit,
} from 'graphql';
import type { DefinitionNode, DocumentNode, FragmentDefinitionNode, GraphQLSchema } from 'graphql';
import { loadSchemaSource } from '../../emulator/schemaSource.js';
import { applyRenameEdits, generationOfSchema, renameEdits, schemaInGeneration } from '../../shared/schemaGeneration.js';
import type { RenameEdit, SchemaGeneration } from '../../shared/schemaGeneration.js';
import { requireConnection } from '../connection.js';
import type { ConnectionFlags } from '../connection.js';
import { introspect } from '../introspect.js';
import type { ActionContext } from '../runAction.js';
import { CliUsageError } from '../usageError.js';
import { codegenDocuments, DEFAULT_GLOBS, documentFiles, documentTexts } from './documentSources.js';
import type { DocumentGlobs, DocumentText } from './documentSources.js';

/** Flags of `labelkit documents check`. */
export interface DocumentsCheckFlags extends ConnectionFlags {
  /** The app's folder (default: the current one). */
  dir?: string;
}

/** Against which schema a problem was found. */
export type CheckedSchema = 'today' | 'renamed' | 'service';

/** One problem of one operation or fragment. */
export interface DocumentProblem {
  file: string;
  line: number;
  column: number;
  /** e.g. `query LabelSetNames`, `fragment ItemFields`, `query (anonymous)`. */
  operation: string;
  /** Where it breaks (or is deprecated): one line for the same problem in several schemas. */
  schemas: CheckedSchema[];
  /** `breaks`: the schema refuses it; `deprecated`: it uses a deprecated field, argument or value. */
  kind: 'breaks' | 'deprecated';
  /** graphql-js's message, e.g. `Cannot query field "tagItems" on type "LabelSet".` */
  message: string;
  /** What to run, when a command fixes it. */
  fix?: string;
}

/** What `labelkit documents check` found. */
export interface DocumentsCheckResult {
  /** Where the globs came from. */
  globs: DocumentGlobs;
  files: number;
  operations: number;
  fragments: number;
  problems: DocumentProblem[];
  /** False when the service (`--url`) has been renamed: today's schema is then gone and not checked. */
  checkedToday: boolean;
  /** True when every operation and fragment runs on the renamed schema as it stands, or after `documents migrate --to labels`. */
  ready: boolean;
  /** The service, with `--url`. */
  service?: { url: string; generation: SchemaGeneration | undefined };
}

/** One parsed text, and how its offsets map back to the file. */
interface Parsed {
  text: DocumentText;
  /** The whole file, for line and column. */
  fileText: string;
  document: DocumentNode;
  /** Edits that made `document`'s text from the file's (none: as written). */
  edits: readonly RenameEdit[];
  /** Whether the text was rewritten into its rename-day form. */
  fix?: string;
}

/** graphql-js's rules, but a fragment may be used in another file (codegen merges the documents). */
const RULES = specifiedRules.filter((rule) => rule !== NoUnusedFragmentsRule);

/** Line and column (1-based) of an offset in a text. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** Maps an offset in the edited text back to the original (inside an edit: its start). */
function originalOffset(offset: number, edits: readonly RenameEdit[]): number {
  let delta = 0;
  for (const edit of edits) {
    const editedStart = edit.start + delta;
    if (offset < editedStart) break;
    if (offset < editedStart + edit.text.length) return edit.start;
    delta += edit.text.length - (edit.end - edit.start);
  }
  return offset - delta;
}

/** The same problem in several schemas as one, in file, line and column order. */
function mergeProblems(problems: readonly DocumentProblem[]): DocumentProblem[] {
  const byKey = new Map<string, DocumentProblem>();
  for (const p of problems) {
    const key = JSON.stringify([p.file, p.line, p.column, p.kind, p.message]);
    const seen = byKey.get(key);
    if (seen) {
      seen.schemas.push(...p.schemas.filter((s) => !seen.schemas.includes(s)));
      if (p.fix !== undefined) seen.fix ??= p.fix;
    } else byKey.set(key, { ...p, schemas: [...p.schemas] });
  }
  return [...byKey.values()].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}

/** `query Name`, `fragment Name`, `query (anonymous)`. */
function definitionName(def: DefinitionNode | undefined): string {
  if (def?.kind === Kind.OPERATION_DEFINITION) return `${def.operation} ${def.name?.value ?? '(anonymous)'}`;
  if (def?.kind === Kind.FRAGMENT_DEFINITION) return `fragment ${def.name.value}`;
  return '(document)';
}

/**
 * Validates each text with graphql-js against one schema, fragments of other files included.
 *
 * @returns one problem per error, at the place in the file where it is
 */
function validateAll(parsed: readonly Parsed[], schema: GraphQLSchema, name: CheckedSchema, deprecations: boolean): DocumentProblem[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const p of parsed) for (const def of p.document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const problems: DocumentProblem[] = [];
  for (const p of parsed) {
    // The fragments this text spreads but does not define, followed through other fragments.
    const own = new Set(p.document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [d.name.value] : [])));
    const added = new Map<string, FragmentDefinitionNode>();
    const queue: DefinitionNode[] = [...p.document.definitions];
    while (queue.length > 0) {
      visit(queue.pop()!, {
        FragmentSpread(node) {
          const def = fragments.get(node.name.value);
          if (def && !own.has(node.name.value) && !added.has(node.name.value)) {
            added.set(node.name.value, def);
            queue.push(def);
          }
        },
      });
    }
    const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [...p.document.definitions, ...added.values()] };
    const source = p.document.loc?.source;
    const report = (errors: readonly GraphQLError[], kind: DocumentProblem['kind']) => {
      for (const error of errors) {
        const node = error.nodes?.find((n) => n.loc?.source === source);
        if (error.nodes && error.nodes.length > 0 && node === undefined) continue; // another file's: reported there
        const at = node?.loc?.start ?? error.positions?.[0] ?? 0;
        const def = p.document.definitions.find((d) => d.loc && d.loc.start <= at && at <= d.loc.end);
        const where = lineColumn(p.fileText, p.text.start + originalOffset(at, p.edits));
        problems.push({ file: p.text.file, ...where, operation: definitionName(def), schemas: [name], kind, message: error.message, ...(p.fix !== undefined && { fix: p.fix }) });
      }
    };
    report(validate(schema, document, RULES), 'breaks');
    if (deprecations) report(validate(schema, document, [NoDeprecatedCustomRule]), 'deprecated');
  }
  return problems;
}

/**
 * Checks an app's own operations and fragments: today's schema, the renamed one, and the service's.
 *
 * @param globs - the glob arguments (none: the codegen configuration's `documents`, else `**\/*.graphql`)
 * @param flags - `--dir`, and the connection flags (with `--url`, the service is introspected)
 * @param context - the run's io, printer and Ctrl-C signal
 * @returns every problem, each at its `file:line:column`, and whether the documents are ready for rename day
 * @throws {@link CliUsageError} (exit 2) when no file matches, a file cannot be read or a text is
 * not GraphQL, every such problem at once, before anything is sent
 * @remarks Validation is graphql-js's `validate` with its specified rules (a fragment may be used
 * in another file, as codegen merges them), and `NoDeprecatedCustomRule` for deprecated fields,
 * arguments and enum values. Against the renamed schema, a text in the `both` form
 * (`labelItems: tagItems`) is checked as `documents migrate --to labels` will write it; any other
 * text as written.
 * @example
 * ```ts
 * const result = await runDocumentsCheck([], { dir: 'app' }, context);
 * ```
 */
export async function runDocumentsCheck(globs: readonly string[], flags: DocumentsCheckFlags, context: ActionContext): Promise<DocumentsCheckResult> {
  const { parsed, found } = await readDocuments(globs, flags.dir);
  const connection = flags.url !== undefined || context.io.env.LABELKIT_URL ? await requireConnection(flags, context.io, context.printer) : undefined;
  let service: DocumentsCheckResult['service'];
  let serviceSchema: GraphQLSchema | undefined;
  if (connection) {
    serviceSchema = buildClientSchema(await introspect(connection, context.signal));
    service = { url: connection.url, generation: generationOfSchema(serviceSchema) };
  }
  const sdl = loadSchemaSource();
  // After the rename (the service says labelItems), today's schema is gone: not checked any more.
  const checkToday = service?.generation !== 'labels';
  const problems = checkToday ? validateAll(parsed, buildSchema(schemaInGeneration(sdl, 'tags')), 'today', true) : [];
  // On rename day: a text in the both form as `migrate --to labels` writes it, any other as it is.
  const renameDay = parsed.map((p): Parsed => {
    if (renameEdits(p.document, 'both').length > 0) return { ...p, fix: 'labelkit documents migrate --to both' };
    const edits = renameEdits(p.document, 'labels');
    if (edits.length === 0) return p;
    const body = applyRenameEdits(p.text.body, edits);
    return { ...p, document: parse(new Source(body, p.text.file)), edits };
  });
  const renamedProblems = validateAll(renameDay, buildSchema(schemaInGeneration(sdl, 'labels')), 'renamed', false);
  problems.push(...renamedProblems);
  if (serviceSchema) problems.push(...validateAll(parsed, serviceSchema, 'service', true));
  const merged = mergeProblems(problems);
  const count = (kind: string) => parsed.reduce((n, p) => n + p.document.definitions.filter((d) => d.kind === kind).length, 0);
  return {
    globs: found,
    files: new Set(parsed.map((p) => p.text.file)).size,
    operations: count(Kind.OPERATION_DEFINITION),
    fragments: count(Kind.FRAGMENT_DEFINITION),
    problems: merged,
    checkedToday: checkToday,
    ready: !renamedProblems.some((p) => p.kind === 'breaks'),
    ...(service && { service }),
  };
}

/** The app's documents, read and parsed; every unreadable file or syntax error at once (exit 2). */
export async function readDocuments(globs: readonly string[], dirFlag: string | undefined): Promise<{ parsed: Parsed[]; found: DocumentGlobs; dir: string }> {
  const dir = resolve(dirFlag ?? '.');
  const found: DocumentGlobs = globs.length > 0 ? { globs: [...globs], from: 'arguments' } : (codegenDocuments(dir) ?? { globs: DEFAULT_GLOBS, from: 'default' });
  const files = await documentFiles(dir, found.globs);
  if (files.length === 0) {
    throw new CliUsageError([{ field: globs.length > 0 ? 'globs' : found.from, message: `no file matches ${found.globs.join(' ')} in ${dir}` }], 'give the documents\' globs, e.g. labelkit documents check "src/**/*.graphql"');
  }
  const problems: { field: string; message: string }[] = [];
  const parsed: Parsed[] = [];
  for (const file of files) {
    let fileText: string;
    try {
      fileText = readFileSync(resolve(dir, file), 'utf8');
    } catch (error) {
      problems.push({ field: file, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      continue;
    }
    for (const text of documentTexts(file, fileText)) {
      try {
        parsed.push({ text, fileText, document: parse(new Source(text.body, file)), edits: [] });
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
        const where = lineColumn(fileText, text.start + (error.positions?.[0] ?? 0));
        problems.push({ field: `${file}:${where.line}:${where.column}`, message: error.message });
      }
    }
  }
  if (problems.length > 0) throw new CliUsageError(problems, 'each file must hold GraphQL operations and fragments');
  return { parsed, found, dir };
}

/** The schemas' names as the output says them. */
const SCHEMA_WORDS: Record<CheckedSchema, string> = {
  today: "today's schema",
  renamed: 'the renamed schema',
  service: 'the service',
};

/**
 * One problem as one line: `file:line:column  operation: message (in which schema; fix)`.
 *
 * @param problem - the problem
 * @param color - red for what breaks, yellow for what is deprecated
 * @returns the line, without a newline
 */
export function problemLine(problem: DocumentProblem, color = false): string {
  const c = pc.createColors(color);
  const kind = problem.kind === 'breaks' ? c.red('breaks') : c.yellow('deprecated');
  const fix = problem.fix !== undefined ? `; fix: ${problem.fix}` : '';
  return `${problem.file}:${problem.line}:${problem.column} ${problem.operation}: ${kind} on ${problem.schemas.map((s) => SCHEMA_WORDS[s]).join(' and ')}: ${problem.message}${fix}`;
}
