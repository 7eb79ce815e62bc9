// Types of crd-from-declarations.mjs for the TypeScript tests (its unit test beside it).

export type Schema = Record<string, unknown>;

export interface KindSchema {
  schema: Schema;
  preserved: string[];
  hasStatus: boolean;
}

export interface ValidatorError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

export const ITEMS: '[]';
export const VALUES: '{}';
export function pathText(path: string[]): string;
export function schemasFromDeclarations(options: {
  roots: { file: string; typeName: string }[];
  sources?: Record<string, string>;
  refine?: (root: string, path: string[], schema: Schema) => Schema;
}): Map<string, KindSchema>;
export function refineFromValidator(
  validate: ((data: unknown) => boolean) & { errors?: ValidatorError[] | null },
): (path: string[], schema: Schema) => Schema;
export function customResourceDefinition(kind: {
  group: string;
  version: string;
  kind: string;
  plural: string;
  schema: KindSchema;
}): {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: {
    group: string;
    names: { kind: string; listKind: string; plural: string; singular: string };
    scope: string;
    versions: { name: string; served: boolean; storage: boolean; schema: { openAPIV3Schema: Schema }; subresources?: { status: Record<string, never> } }[];
  };
};
