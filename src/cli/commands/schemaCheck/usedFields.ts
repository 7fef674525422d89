import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import type { DocumentNode, GraphQLInputType, GraphQLSchema } from 'graphql';

/** What labelkit's operations touch in a schema, as schema coordinates. */
interface UsedFields {
  /** `Type.field` of every field selected, root fields included. */
  fields: Set<string>;
  /** Object and interface types whose fields are selected. */
  outputTypes: Set<string>;
  /** Enums that answers may hold (a selected field's type). */
  outputEnums: Set<string>;
  /** Input objects and enums that requests send (variables and arguments, nested). */
  inputTypes: Set<string>;
}

/**
 * Collects the schema coordinates that a set of operations uses.
 *
 * @param schema - the schema the operations are valid against
 * @param documents - the operations (and fragments)
 * @returns the fields, output types, output enums and input types they touch
 * @example
 * ```ts
 * usedFields(buildSchema(sdl), [GetJobDocument]).fields.has('Job.status'); // true
 * ```
 */
export function usedFields(schema: GraphQLSchema, documents: readonly DocumentNode[]): UsedFields {
  const used: UsedFields = { fields: new Set(), outputTypes: new Set(), outputEnums: new Set(), inputTypes: new Set() };
  const addInput = (type: GraphQLInputType | null | undefined) => {
    const named = type ? getNamedType(type) : undefined;
    if (!named || used.inputTypes.has(named.name)) return;
    if (isEnumType(named)) used.inputTypes.add(named.name);
    if (isInputObjectType(named)) {
      used.inputTypes.add(named.name);
      for (const field of Object.values(named.getFields())) addInput(field.type);
    }
  };
  for (const document of documents) {
    const typeInfo = new TypeInfo(schema);
    visit(
      document,
      visitWithTypeInfo(typeInfo, {
        Field() {
          const parent = typeInfo.getParentType();
          const def = typeInfo.getFieldDef();
          if (!parent || !def) return;
          used.fields.add(`${parent.name}.${def.name}`);
          used.outputTypes.add(parent.name);
          const result = getNamedType(def.type);
          if (isEnumType(result)) used.outputEnums.add(result.name);
        },
        Argument() {
          addInput(typeInfo.getArgument()?.type);
        },
        VariableDefinition() {
          addInput(typeInfo.getInputType());
        },
      }),
    );
  }
  return used;
}

/**
 * Whether a change at a schema path (`Type`, `Type.field`, `Type.field.argument`,
 * `Enum.VALUE`) can affect labelkit's operations.
 *
 * @param path - the change's path as graphql-inspector gives it
 * @param type - the change's type, e.g. `ENUM_VALUE_ADDED`
 * @param schema - labelkit's schema (the old side of the comparison)
 * @param used - what the operations use, from {@link usedFields}
 * @returns true when the change touches a field, argument, input or enum that labelkit uses
 * @remarks A value added to an enum matters only when answers may hold it; labelkit sends only
 * the values it knows.
 */
export function touchesUsed(path: string | undefined, type: string, schema: GraphQLSchema, used: UsedFields): boolean {
  if (!path) return false;
  const [typeName = '', field] = path.split('.');
  const named = schema.getType(typeName);
  if (!named) return false;
  if (isEnumType(named)) {
    if (type === 'ENUM_VALUE_ADDED') return used.outputEnums.has(typeName);
    return used.outputEnums.has(typeName) || used.inputTypes.has(typeName);
  }
  if (isInputObjectType(named)) return used.inputTypes.has(typeName);
  if (isObjectType(named) || isInterfaceType(named)) {
    return field === undefined || field.startsWith('@') ? used.outputTypes.has(typeName) : used.fields.has(`${typeName}.${field}`);
  }
  return used.inputTypes.has(typeName) || [...used.fields].some((f) => f.startsWith(`${typeName}.`));
}
