import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildClientSchema, printSchema } from 'graphql';
import type { GraphQLSchema, IntrospectionQuery } from 'graphql';

/** The committed copy of production's introspection (see test/fixtures/README.md). */
export const PRODUCTION_SCHEMA_FILE = join(import.meta.dirname, '..', 'fixtures', 'production-schema.json');

/** Production's introspection result, from the repository's fixture. */
export function productionIntrospection(): IntrospectionQuery {
  const json = JSON.parse(readFileSync(PRODUCTION_SCHEMA_FILE, 'utf8')) as IntrospectionQuery | { data: IntrospectionQuery };
  return 'data' in json ? json.data : json;
}

/** Production's schema, built from the fixture. */
export function productionSchema(): GraphQLSchema {
  return buildClientSchema(productionIntrospection());
}

/** Production's schema printed as SDL (for servers that take type definitions). */
export function productionSdl(): string {
  return printSchema(productionSchema());
}
