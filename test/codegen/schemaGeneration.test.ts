import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { generationOfSchema, operationsInGeneration, RENAMED_WRITE_FIELDS, schemaInGeneration } from '../../src/shared/schemaGeneration.js';
import { repoRoot } from '../support/codegenConfig.js';

const sdl = () => readFile(join(repoRoot, 'schema.graphql'), 'utf8');
const fieldsOf = (text: string, type: string) => Object.keys((buildSchema(text).getType(type) as unknown as { getFields(): object }).getFields()).sort();

// The tag→label rule of the label-set writes: their input fields and the append field follow the
// announced rename (tagItems → labelItems, tagName → labelName); type names stay.
describe('schemaInGeneration', () => {
  it('renames the writes’ input fields and the append field, and keeps the type names', async () => {
    const labels = schemaInGeneration(await sdl(), 'labels');
    expect(fieldsOf(labels, 'CreateLabelSetInput')).toEqual(['arrowLabelRequired', 'index', 'labelItems', 'name']);
    expect(fieldsOf(labels, 'UpdateProjectLabelSetInput')).toContain('labelItems');
    expect(fieldsOf(labels, 'AppendLabelSetTagItemsInput')).toEqual(['labelItems', 'labelSetId', 'labelSetSignature']);
    expect(fieldsOf(labels, 'TagItemInput')).toEqual(['color', 'desc', 'id', 'labelName', 'parentId']);
    expect(fieldsOf(labels, 'AppendTagItemInput')).toEqual(['color', 'desc', 'id', 'labelName']);
    expect(fieldsOf(labels, 'Mutation')).toContain('appendLabelSetLabelItems');
    const schema = buildSchema(labels);
    const allFields = Object.values(schema.getTypeMap()).flatMap((t) => ('getFields' in t ? Object.keys(t.getFields()) : []));
    expect(allFields.filter((f) => /^(tagItems|tagName|appendLabelSetTagItems)$/.test(f))).toEqual([]);
    expect(schemaInGeneration(labels, 'tags')).toBe(schemaInGeneration(await sdl(), 'tags'));
  });

  it('writes a schema renamed only in part out whole, in either generation', async () => {
    const partly = (await sdl()).replace(/\btagItems:/g, 'labelItems:').replace(/\btagName:/g, 'labelName:');
    expect(partly).toMatch(/appendLabelSetTagItems\(/);
    expect(generationOfSchema(partly)).toBe('labels');
    expect(schemaInGeneration(partly, 'labels')).toBe(schemaInGeneration(await sdl(), 'labels'));
    expect(schemaInGeneration(partly, 'tags')).toBe(schemaInGeneration(await sdl(), 'tags'));
  });

  it('tells a generation by LabelSet and TagItem alone, with or without the writes', () => {
    expect(generationOfSchema('type LabelSet { tagItems: [TagItem!]! } type TagItem { tagName: String! }')).toBe('tags');
    expect(generationOfSchema('type LabelSet { labelItems: [TagItem!]! } type TagItem { labelName: String! } type Mutation { appendLabelSetTagItems: Int }')).toBe('labels');
  });

  it('renames each write name on its own type only', () => {
    const other = 'type Query { x: Other } type Other { tagItems: Int appendLabelSetTagItems: Int } input OtherInput { tagName: Int }';
    expect(schemaInGeneration(other, 'labels')).toBe(schemaInGeneration(other, 'tags'));
    expect(RENAMED_WRITE_FIELDS.map((r) => r.type)).toContain('Mutation');
  });
});

describe('operationsInGeneration', () => {
  it('aliases the append field to keep its result key, and renames the fields of an inline input object', () => {
    const source = 'mutation A($items: [AppendTagItemInput!]!) { appendLabelSetLabelItems(input: { labelSetId: "1", labelItems: $items }) { id labelName } }';
    const oneLine = (text: string) => text.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')');
    const tags = oneLine(operationsInGeneration(source, 'tags'));
    expect(tags).toContain('appendLabelSetLabelItems: appendLabelSetTagItems(input: {labelSetId: "1", tagItems: $items})');
    expect(tags).toContain('labelName: tagName');
    expect(operationsInGeneration(tags, 'labels')).toBe(operationsInGeneration(source, 'labels'));
    expect(oneLine(operationsInGeneration(source, 'labels'))).toContain('appendLabelSetLabelItems(input: {labelSetId: "1", labelItems: $items})');
  });
});
