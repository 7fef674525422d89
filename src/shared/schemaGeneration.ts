import { isObjectType, isSchema, Kind, parse, print, visit } from 'graphql';
import type {
  DocumentNode,
  FieldNode,
  GraphQLSchema,
  InputObjectTypeDefinitionNode,
  InputObjectTypeExtensionNode,
  NameNode,
  ObjectFieldNode,
  ObjectTypeDefinitionNode,
  ObjectTypeExtensionNode,
} from 'graphql';
import type { SchemaGeneration } from './constants.js';

// Given once in constants.ts (which loads nothing); re-exported for the rooms that read schemas.
export { SCHEMA_GENERATIONS } from './constants.js';
export type { SchemaGeneration } from './constants.js';

/**
 * The fields the rename touches: on which type, and their name in each generation. The type
 * names stay (`TagItem` is not part of the announced rename).
 */
const RENAMED_FIELDS = [
  { type: 'LabelSet', tags: 'tagItems', labels: 'labelItems' },
  { type: 'TagItem', tags: 'tagName', labels: 'labelName' },
] as const;

/**
 * The other names the same rule (tag → label) renames: the input fields and the root field of
 * the label-set writes. They follow {@link RENAMED_FIELDS} when a schema or an operation is
 * rewritten into a generation, but a schema's generation is told by {@link RENAMED_FIELDS} alone
 * (the announced rename), so a schema without the writes still has a generation. Type names stay,
 * as `TagItem` does (`TagItemInput`, `AppendTagItemInput`, `AppendLabelSetTagItemsInput`).
 */
export const RENAMED_WRITE_FIELDS = [
  { type: 'CreateLabelSetInput', tags: 'tagItems', labels: 'labelItems' },
  { type: 'UpdateProjectLabelSetInput', tags: 'tagItems', labels: 'labelItems' },
  { type: 'AppendLabelSetTagItemsInput', tags: 'tagItems', labels: 'labelItems' },
  { type: 'TagItemInput', tags: 'tagName', labels: 'labelName' },
  { type: 'AppendTagItemInput', tags: 'tagName', labels: 'labelName' },
  { type: 'Mutation', tags: 'appendLabelSetTagItems', labels: 'appendLabelSetLabelItems' },
] as const;

/** Every rename of a field definition, output and input types alike. */
const ALL_RENAMES: readonly { type: string; tags: string; labels: string }[] = [...RENAMED_FIELDS, ...RENAMED_WRITE_FIELDS];

/**
 * Which generation a schema speaks, by the fields of its `LabelSet` and `TagItem` types.
 *
 * @param sdl - schema text (SDL), its parsed document, or a built schema (e.g. from introspection)
 * @returns `tags` or `labels`; `undefined` when the schema has neither set of names, or a mix
 * @remarks This is what `codegen.ts` and the emulator use to read schema.graphql, so a fork that
 * renames the fields in schema.graphql needs no other change.
 * @example
 * ```ts
 * generationOfSchema('type LabelSet { tagItems: [TagItem!]! } type TagItem { tagName: String! }'); // 'tags'
 * ```
 */
export function generationOfSchema(sdl: string | DocumentNode | GraphQLSchema): SchemaGeneration | undefined {
  const fields = new Map<string, Set<string>>();
  if (isSchema(sdl)) {
    for (const r of RENAMED_FIELDS) {
      const type = sdl.getType(r.type);
      if (isObjectType(type)) fields.set(r.type, new Set(Object.keys(type.getFields())));
    }
  }
  const doc = typeof sdl === 'string' ? parse(sdl) : isSchema(sdl) ? { definitions: [] } : sdl;
  for (const def of doc.definitions) {
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.OBJECT_TYPE_EXTENSION) {
      const names = fields.get(def.name.value) ?? new Set<string>();
      for (const f of def.fields ?? []) names.add(f.name.value);
      fields.set(def.name.value, names);
    }
  }
  const has = (g: SchemaGeneration) => RENAMED_FIELDS.every((r) => fields.get(r.type)?.has(r[g]) === true);
  const hasAny = (g: SchemaGeneration) => RENAMED_FIELDS.some((r) => fields.get(r.type)?.has(r[g]) === true);
  if (has('tags') && !hasAny('labels')) return 'tags';
  if (has('labels') && !hasAny('tags')) return 'labels';
  return undefined;
}

/**
 * Rewrites a schema (SDL) into one generation.
 *
 * @param sdl - schema text in either generation
 * @param to - the generation wanted
 * @returns the SDL printed in that generation (comments dropped; descriptions kept)
 * @remarks Only the field definitions of {@link RENAMED_FIELDS} and {@link RENAMED_WRITE_FIELDS}
 * change, on their own types (object and input types, and their extensions); everything else is
 * printed as it was parsed. A schema renamed only in part (say `tagItems` and `tagName`, but not
 * `appendLabelSetTagItems`) comes out whole in either generation. Applying it twice gives the same text.
 * @example
 * ```ts
 * schemaInGeneration(readFileSync('schema.graphql', 'utf8'), 'labels'); // LabelSet.labelItems, TagItem.labelName
 * ```
 */
export function schemaInGeneration(sdl: string, to: SchemaGeneration): string {
  const from: SchemaGeneration = to === 'tags' ? 'labels' : 'tags';
  const rename = <T extends TypeWithFields>(node: T): T | undefined => {
    const renames = ALL_RENAMES.filter((r) => r.type === node.name.value);
    if (renames.length === 0) return undefined;
    return {
      ...node,
      fields: node.fields?.map((f) => {
        const r = renames.find((x) => x[from] === f.name.value);
        return r ? { ...f, name: { ...f.name, value: r[to] } } : f;
      }),
    };
  };
  const renamed = visit(parse(sdl), {
    ObjectTypeDefinition: rename,
    ObjectTypeExtension: rename,
    InputObjectTypeDefinition: rename,
    InputObjectTypeExtension: rename,
  });
  return print(renamed);
}

/** The definitions whose fields a rename touches. */
type TypeWithFields = ObjectTypeDefinitionNode | ObjectTypeExtensionNode | InputObjectTypeDefinitionNode | InputObjectTypeExtensionNode;

/**
 * Rewrites operations into one generation, keeping every result key the same.
 *
 * @param source - operations (GraphQL text) written against either generation
 * @param to - the generation wanted
 * @returns the operations printed for that generation (comments dropped)
 * @remarks In `tags`, a selection of `labelItems`/`labelName` becomes `labelItems: tagItems` /
 * `labelName: tagName` (the alias keeps the result key). In `labels`, the alias goes:
 * `labelItems: tagItems` becomes `labelItems`. A field selected as `tagItems` without an alias
 * keeps its result key `tagItems` in both. The root field of {@link RENAMED_WRITE_FIELDS} is
 * renamed the same way (`appendLabelSetLabelItems: appendLabelSetTagItems` in `tags`), and so are
 * the fields of an input object written inline (`{ tagItems: $items }`); the variables' types are
 * type names, which the rename keeps. Fields are matched by name: each renamed name belongs to the
 * label-set types alone.
 * @example
 * ```ts
 * operationsInGeneration('{ getCabinetLabelSetsById(cabinetId: "c") { labelItems { labelName } } }', 'tags');
 * // … labelItems: tagItems { labelName: tagName } …
 * ```
 */
export function operationsInGeneration(source: string, to: SchemaGeneration): string {
  const from: SchemaGeneration = to === 'tags' ? 'labels' : 'tags';
  const renamed = visit(parse(source), {
    Field(node: FieldNode): FieldNode | undefined {
      const r = ALL_RENAMES.find((x) => x[from] === node.name.value);
      if (!r) return undefined;
      const key = node.alias?.value ?? node.name.value;
      const name = { ...node.name, value: r[to] };
      const alias: NameNode | undefined = key === r[to] ? undefined : { kind: Kind.NAME, value: key };
      return { ...node, name, alias };
    },
    ObjectField(node: ObjectFieldNode): ObjectFieldNode | undefined {
      const r = ALL_RENAMES.find((x) => x[from] === node.name.value);
      return r ? { ...node, name: { ...node.name, value: r[to] } } : undefined;
    },
  });
  return print(renamed);
}

/** One splice of an operation's text: `text` replaces the characters `[start, end)`. */
export interface RenameEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * The splices that move operations (and fragments) across the rename, each touching one renamed
 * field and nothing else, so that a caller can rewrite a file in place: comments, formatting and
 * every other character stay as they are.
 *
 * @param document - operations parsed with their locations (graphql's `parse`, the default)
 * @param to - `both`: the form that runs on today's schema and gives the renamed result keys
 * (`labelItems: tagItems { labelName: tagName }`, as labelkit's own operations/); `labels`: the
 * renamed schema's form, whose result keys are the same (`labelItems { labelName }`)
 * @returns the edits in source order (offsets into the source the document was parsed from);
 * none when the document is already in that form
 * @remarks The result type of an operation in the `both` form and of its `labels` form is the
 * same. `both` changes a result key once: an unaliased `tagItems` becomes `labelItems: tagItems`
 * (an alias that is there stays: `items: tagItems`). `labels` keeps every result key: the alias
 * that equals the renamed name goes, any other alias stays (`items: labelItems`), and an unaliased
 * `tagItems` becomes `tagItems: labelItems`. Input fields written inline (`{ tagItems: $items }`)
 * take the names of the schema aimed at (today's for `both`); the variables' types are type names,
 * which the rename keeps. Fields are matched by name, as {@link operationsInGeneration} does.
 * @example
 * ```ts
 * const source = '{ getCabinetLabelSetsById(cabinetId: "c") { tagItems { tagName } } }';
 * renameEdits(parse(source), 'both'); // two inserts: "labelItems: " and "labelName: "
 * ```
 */
export function renameEdits(document: DocumentNode, to: 'both' | 'labels'): RenameEdit[] {
  const edits: RenameEdit[] = [];
  const span = (node: FieldNode) => ({ start: (node.alias ?? node.name).loc!.start, end: node.name.loc!.end });
  visit(document, {
    Field(node: FieldNode) {
      const name = node.name.value;
      const key = node.alias?.value ?? name;
      const r = ALL_RENAMES.find((x) => x.tags === name || x.labels === name);
      if (!r || !node.name.loc) return;
      const target = to === 'both' ? r.tags : r.labels;
      if (to === 'both' && name === r.tags) {
        if (!node.alias) edits.push({ start: node.name.loc.start, end: node.name.loc.start, text: `${r.labels}: ` });
        return;
      }
      if (name === target) return;
      edits.push({ ...span(node), text: key === target ? target : `${key}: ${target}` });
    },
    ObjectField(node: ObjectFieldNode) {
      const name = node.name.value;
      const r = ALL_RENAMES.find((x) => x.tags === name || x.labels === name);
      if (!r || !node.name.loc) return;
      const target = to === 'both' ? r.tags : r.labels;
      if (name !== target) edits.push({ start: node.name.loc.start, end: node.name.loc.end, text: target });
    },
  });
  return edits.sort((a, b) => a.start - b.start);
}

/**
 * Applies {@link renameEdits} to the text they were computed from.
 *
 * @param text - the source text (the whole body the document was parsed from)
 * @param edits - the edits, in source order, not overlapping
 * @returns the text with each edit spliced in
 */
export function applyRenameEdits(text: string, edits: readonly RenameEdit[]): string {
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}
