// One path for a field: a service's message becomes an /api body by the route's zod response
// schema, never by a hand-written copy per route. The schema names the API's fields (some
// snake_case, some camelCase: the spec's contract); the message (ts-proto) carries the same
// names in camelCase. For each key the schema names, `toApi` reads the message's field of that
// name's camelCase form, converts what the wire form and the JSON form write differently
// (Timestamp -> ISO string, proto3's "no value" -> null), recurses into objects and arrays, and
// leaves out whatever the schema does not name.
//
// Its type is the point: `MessageFor<Schema>` says which fields a message must carry, so a field
// renamed in a .proto file (or in a schema) fails the build where it is still used.
import type { z } from 'zod';

/** `per_image_cost` -> `perImageCost`; a name without `_` stays as it is. */
export type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

export const camelCase = (s: string) => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** What a message may carry for a value the schema `S` describes. */
export type SourceOf<S> =
  S extends z.ZodNullable<infer I>
    ? SourceOf<I> | null | undefined
    : S extends z.ZodOptional<infer I>
      ? SourceOf<I> | undefined
      : S extends z.ZodArray<infer E>
        ? readonly SourceOf<E>[]
        : S extends z.ZodObject<infer Shape>
          ? // proto3 writes every message field as optional: an absent one is refused when read.
            MessageOf<Shape> | undefined
          : S extends z.ZodEnum
            ? string
            : S extends z.ZodLiteral<infer L>
              ? L extends string
                ? string
                : L extends boolean
                  ? boolean
                  : L
              : // Any string schema (z.string(), z.iso.datetime(), z.uuid()): a Timestamp is written as ISO 8601.
                S extends z.ZodType<string>
                ? string | Date
                : S extends z.ZodType<number>
                  ? number | bigint
                  : S extends z.ZodType<boolean>
                    ? boolean
                    : unknown;

/** The fields a message must carry for an object schema's shape: each key, in camelCase. */
export type MessageOf<Shape> = {
  [K in keyof Shape & string as CamelCase<K>]: SourceOf<Shape[K]>;
};

/** The message an object schema reads. */
export type MessageFor<S extends z.ZodObject> = MessageOf<S['shape']>;

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, string | number>;
  format?: string;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Whether a value means "none" on the wire: absent, or proto3's default of a scalar that has no presence. */
const isNone = (v: unknown) => v === undefined || v === null || v === '';

function view(schema: z.ZodType, value: unknown, path: string): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'nullable':
    case 'optional': {
      const inner = def.innerType as z.ZodType;
      // proto3 has no "absent" for a string or an enum: "" is how a message says none.
      if (isNone(value)) return def.type === 'nullable' ? null : undefined;
      const innerDef = defOf(inner);
      // A nullable enum: a value it does not name is none too (a message's status "" or unknown).
      if (innerDef.type === 'enum' && !Object.values(innerDef.entries ?? {}).includes(value as string))
        return def.type === 'nullable' ? null : undefined;
      return view(inner, value, path);
    }
    case 'object': {
      if (typeof value !== 'object' || value === null) throw new Error(`${path || 'the message'} is missing`);
      const source = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const name = camelCase(key);
        const v = view(field, name in source ? source[name] : source[key], path ? `${path}.${name}` : name);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
    case 'array':
      if (!Array.isArray(value)) throw new Error(`${path} is not a list`);
      return value.map((v, i) => view(def.element as z.ZodType, v, `${path}[${i}]`));
    case 'string':
      return value instanceof Date ? value.toISOString() : value;
    case 'number':
      return typeof value === 'bigint' ? Number(value) : value;
    default:
      return value;
  }
}

/**
 * The /api body `schema` describes, read from a service's message: the fields the schema names
 * (each read under its camelCase name), Timestamps as ISO strings, a nullable field's "none"
 * ("" or absent, or an enum value the schema does not name) as null. A value that is computed
 * rather than renamed is the route's to write, into the message it passes
 * (`toApi(S, { ...msg, id: msg.imageId })`).
 */
export function toApi<S extends z.ZodObject>(schema: S, message: MessageFor<S>): z.output<S> {
  return view(schema, message, '') as z.output<S>;
}
