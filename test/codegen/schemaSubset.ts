import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isIntrospectionType,
} from 'graphql';
import type { GraphQLSchema } from 'graphql';

/**
 * Lists every way in which `ours` is not a faithful subset of `production`: a type, field,
 * argument or enum value that production lacks, a type or nullability that differs, or a
 * required argument or input field of production that ours leaves out. Empty when faithful.
 */
export function subsetProblems(ours: GraphQLSchema, production: GraphQLSchema): string[] {
  const problems: string[] = [];
  for (const type of Object.values(ours.getTypeMap())) {
    if (isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
    const prod = production.getType(type.name);
    if (!prod) {
      problems.push(`type ${type.name} is not in production`);
      continue;
    }
    if (prod.constructor !== type.constructor) {
      problems.push(`type ${type.name} is a ${prod.constructor.name} in production`);
      continue;
    }
    if (isScalarType(type)) continue;
    if (isEnumType(type) && isEnumType(prod)) {
      const known = new Set(prod.getValues().map((v) => v.name));
      for (const v of type.getValues()) {
        if (!known.has(v.name)) problems.push(`enum value ${type.name}.${v.name} is not in production`);
      }
      continue;
    }
    if ((isObjectType(type) || isInterfaceType(type)) && (isObjectType(prod) || isInterfaceType(prod))) {
      const prodFields = prod.getFields();
      for (const field of Object.values(type.getFields())) {
        const where = `${type.name}.${field.name}`;
        const pf = prodFields[field.name];
        if (!pf) {
          problems.push(`field ${where} is not in production`);
          continue;
        }
        if (String(pf.type) !== String(field.type)) {
          problems.push(`field ${where} is ${String(field.type)}, production says ${String(pf.type)}`);
        }
        for (const arg of field.args) {
          const pa = pf.args.find((a) => a.name === arg.name);
          if (!pa) problems.push(`argument ${where}(${arg.name}) is not in production`);
          else if (String(pa.type) !== String(arg.type)) {
            problems.push(`argument ${where}(${arg.name}) is ${String(arg.type)}, production says ${String(pa.type)}`);
          }
        }
        for (const pa of pf.args) {
          if (isNonNullType(pa.type) && pa.defaultValue === undefined && !field.args.some((a) => a.name === pa.name)) {
            problems.push(`argument ${where}(${pa.name}) is required in production but missing`);
          }
        }
      }
      continue;
    }
    if (isInputObjectType(type) && isInputObjectType(prod)) {
      const prodFields = prod.getFields();
      const ourFields = type.getFields();
      for (const field of Object.values(ourFields)) {
        const pf = prodFields[field.name];
        if (!pf) problems.push(`input field ${type.name}.${field.name} is not in production`);
        else if (String(pf.type) !== String(field.type)) {
          problems.push(`input field ${type.name}.${field.name} is ${String(field.type)}, production says ${String(pf.type)}`);
        }
      }
      for (const pf of Object.values(prodFields)) {
        if (isNonNullType(pf.type) && pf.defaultValue === undefined && !ourFields[pf.name]) {
          problems.push(`input field ${type.name}.${pf.name} is required in production but missing`);
        }
      }
    }
  }
  return problems;
}

/** Lists every type, field, argument and enum value of `schema` that has no description. */
export function undescribed(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
    const isRoot = type === schema.getQueryType() || type === schema.getMutationType();
    if (!type.description && !isRoot) missing.push(type.name);
    if (isObjectType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
      }
    }
    if (isEnumType(type)) {
      for (const v of type.getValues()) if (!v.description) missing.push(`${type.name}.${v.name}`);
    }
  }
  return missing;
}
