// A CustomResourceDefinition's structural openAPIV3Schema from a kind's TypeScript declaration
// (ADR 0306): for operators whose CRDs cannot be made here from their own sources, but whose API
// types are published as declarations (the npm packages of kubernetes-models, generated from the Go
// types). The TypeScript compiler resolves every import (the kind's own types, Kubernetes' core types
// from kubernetes-models) and this walks the checked types:
//   interface members         object `properties`; `required` = the members not marked optional
//   `[key: string]: T`        a map: `additionalProperties`
//   Array<T>                  `type: array` with `items`
//   string / boolean          their types; a union of string literals is an `enum`
//   number                    `number` (declarations say no more: `refine` may make it an integer)
//   string | number           `x-kubernetes-int-or-string` (IntOrString, Quantity)
//   anything else (any, `{}`, another union, a recursive type): `x-kubernetes-preserve-unknown-fields`
//                             on that field only; each such path is returned, so it can be counted
// `refine` sees each string and number leaf, for what the declarations cannot say (the caller asks
// the package's compiled validator: refineFromValidator). Descriptions come from the JSDoc of each member. The kind's `metadata` is left to the API server
// (`type: object`), and its `apiVersion` and `kind` are plain strings, as controller-gen makes them.

import ts from 'typescript';

/** @typedef {Record<string, unknown>} Schema */
/**
 * @typedef {object} KindSchema
 * @property {Schema} schema          the openAPIV3Schema
 * @property {string[]} preserved     the paths given x-kubernetes-preserve-unknown-fields (`a.b[].c{}`)
 * @property {boolean} hasStatus      whether the kind declares a `status` (the CRD's status subresource)
 */

/** A path segment for an array's items. */
export const ITEMS = '[]';
/** A path segment for a map's values. */
export const VALUES = '{}';

const NULLISH = ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void;

/** @param {string[]} path */
export const pathText = (path) => path.map((s, i) => (s === ITEMS || s === VALUES || i === 0 ? s : `.${s}`)).join('');

/**
 * The compiler host: the file system, with `sources` (path to text) served from memory first.
 * @param {ts.CompilerOptions} options @param {Record<string, string>} sources
 */
function hostWith(options, sources) {
  const host = ts.createCompilerHost(options, true);
  const base = {
    fileExists: host.fileExists,
    readFile: host.readFile,
    getSourceFile: host.getSourceFile,
    directoryExists: host.directoryExists,
  };
  const dirs = new Set(Object.keys(sources).flatMap((f) => f.split('/').map((_, i, a) => a.slice(0, i).join('/'))));
  host.directoryExists = (d) => dirs.has(d.replace(/\/$/, '')) || Boolean(base.directoryExists?.call(host, d));
  host.fileExists = (f) => f in sources || base.fileExists.call(host, f);
  host.readFile = (f) => (f in sources ? sources[f] : base.readFile.call(host, f));
  host.getSourceFile = (f, lang, onError, create) =>
    f in sources
      ? ts.createSourceFile(f, /** @type {string} */ (sources[f]), lang, true)
      : base.getSourceFile.call(host, f, lang, onError, create);
  return host;
}

/**
 * Walks each root kind's declared type into a structural schema.
 * @param {object} options
 * @param {{ file: string, typeName: string }[]} options.roots   the kinds: the declaration file and the interface
 * @param {Record<string, string>} [options.sources]  declaration files served from memory (tests)
 * @param {(root: string, path: string[], schema: Schema) => Schema} [options.refine]  each string and
 *   number leaf's schema, at this path of this root (its typeName), as the caller knows it better
 * @returns {Map<string, KindSchema>} by typeName
 */
export function schemasFromDeclarations({ roots, sources = {}, refine = (_root, _path, schema) => schema }) {
  /** @type {ts.CompilerOptions} */
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    // The language's own library, not the DOM's (the default for a target): declarations of API
    // types need no more, and it compiles in a fraction of the time.
    lib: ['lib.es2022.d.ts'],
  };
  const program = ts.createProgram({
    rootNames: roots.map((r) => r.file),
    options,
    host: hostWith(options, sources),
  });
  const checker = program.getTypeChecker();
  /** @type {Map<string, KindSchema>} */
  const out = new Map();
  for (const root of roots) {
    const source = program.getSourceFile(root.file);
    if (!source) throw new Error(`no declaration file ${root.file}`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === root.typeName);
    if (!symbol) throw new Error(`${root.file} exports no ${root.typeName}`);
    /** @type {string[]} */
    const preserved = [];
    const walker = makeWalker(checker, (path, schema) => refine(root.typeName, path, schema), preserved);
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    const schema = walker.kind(type);
    const description = doc(checker, symbol);
    out.set(root.typeName, {
      schema: description ? { description, ...schema } : schema,
      preserved,
      hasStatus: Boolean(type.getProperty('status')),
    });
  }
  return out;
}

/** @param {ts.TypeChecker} checker @param {ts.Symbol | undefined} symbol */
function doc(checker, symbol) {
  return symbol ? ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() : '';
}

/**
 * @param {ts.TypeChecker} checker
 * @param {(path: string[], schema: Schema) => Schema} refine
 * @param {string[]} preserved
 */
function makeWalker(checker, refine, preserved) {
  /** The types being walked on the way down: meeting one again is a recursive type. */
  const onPath = new Set();

  /** @param {string[]} path @param {string} why @returns {Schema} */
  const preserve = (path, why) => {
    preserved.push(`${pathText(path)} (${why})`);
    return { 'x-kubernetes-preserve-unknown-fields': true };
  };

  /** @param {ts.Type} type @param {string[]} path @returns {Schema} */
  function walk(type, path) {
    const members = type.isUnion() ? type.types.filter((t) => !(t.flags & NULLISH)) : [type];
    if (members.length === 0) return preserve(path, 'no type');
    if (members.length > 1) return union(members, path);
    const t = /** @type {ts.Type} */ (members[0]);
    // An import the compiler could not resolve reads as `any` too: that is a broken input, not a free field.
    if (/** @type {{ intrinsicName?: string }} */ (t).intrinsicName === 'error')
      throw new Error(`${pathText(path)}: a type the compiler could not resolve (a missing declaration file?)`);
    if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return preserve(path, 'any');
    if (t.flags & ts.TypeFlags.StringLike)
      return refine(path, t.isStringLiteral() ? { type: 'string', enum: [t.value] } : { type: 'string' });
    if (t.flags & ts.TypeFlags.BooleanLike) return { type: 'boolean' };
    if (t.flags & ts.TypeFlags.NumberLike) return number(path, t.isNumberLiteral() ? [t.value] : undefined);
    if (checker.isArrayType(t)) {
      const [item] = checker.getTypeArguments(/** @type {ts.TypeReference} */ (t));
      if (!item) return preserve(path, 'array of no type');
      const items = walk(item, [...path, ITEMS]);
      const description = doc(checker, item.aliasSymbol ?? item.getSymbol());
      return { type: 'array', items: description && !items.description ? { description, ...items } : items };
    }
    if (t.flags & ts.TypeFlags.Object) return object(t, path);
    return preserve(path, checker.typeToString(t));
  }

  /** @param {ts.Type[]} members @param {string[]} path @returns {Schema} */
  function union(members, path) {
    // `boolean` is the union true | false.
    if (members.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) return { type: 'boolean' };
    if (members.every((t) => t.isStringLiteral()))
      return refine(path, { type: 'string', enum: members.map((t) => /** @type {ts.StringLiteralType} */ (t).value) });
    if (members.every((t) => t.isNumberLiteral()))
      return number(
        path,
        members.map((t) => /** @type {ts.NumberLiteralType} */ (t).value),
      );
    const kinds = new Set(
      members.map((t) =>
        t.flags & ts.TypeFlags.StringLike ? 'string' : t.flags & ts.TypeFlags.NumberLike ? 'number' : 'other',
      ),
    );
    // IntOrString and Quantity: what the API server's own types declare for them.
    if (kinds.size === 2 && kinds.has('string') && kinds.has('number'))
      return { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
    return preserve(path, members.map((t) => checker.typeToString(t)).join(' | '));
  }

  /** @param {string[]} path @param {number[]} [values] @returns {Schema} */
  function number(path, values) {
    return refine(path, values ? { type: 'number', enum: values } : { type: 'number' });
  }

  /** @param {ts.Type} t @param {string[]} path @returns {Schema} */
  function object(t, path) {
    if (onPath.has(t)) return { type: 'object', ...preserve(path, `recursive ${checker.typeToString(t)}`) };
    onPath.add(t);
    try {
      const props = checker.getPropertiesOfType(t);
      const index = checker.getIndexInfoOfType(t, ts.IndexKind.String);
      if (props.length === 0 && !index)
        return { type: 'object', ...preserve(path, 'an object of no declared members') };
      if (props.length > 0 && index) return { type: 'object', ...preserve(path, 'members and a map at once') };
      if (index) return { type: 'object', additionalProperties: walk(index.type, [...path, VALUES]) };
      return { type: 'object', ...members(props, path) };
    } finally {
      onPath.delete(t);
    }
  }

  /** @param {ts.Symbol[]} props @param {string[]} path */
  function members(props, path) {
    /** @type {Record<string, Schema>} */
    const properties = {};
    /** @type {string[]} */
    const required = [];
    for (const p of props) {
      const schema = walk(checker.getTypeOfSymbol(p), [...path, p.name]);
      const description = doc(checker, p);
      properties[p.name] = description ? { description, ...schema } : schema;
      if (!(p.flags & ts.SymbolFlags.Optional)) required.push(p.name);
    }
    return required.length ? { properties, required } : { properties };
  }

  return {
    /**
     * The kind itself: its `metadata` is the API server's, `apiVersion` and `kind` plain strings.
     * @param {ts.Type} type @returns {Schema}
     */
    kind(type) {
      const props = checker.getPropertiesOfType(type);
      const own = props.filter((p) => !['apiVersion', 'kind', 'metadata'].includes(p.name));
      const { properties, required } = members(own, []);
      return {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { type: 'object' },
          ...properties,
        },
        ...(required ? { required } : {}),
      };
    },
  };
}

/** A string no enum of a Kubernetes API allows. */
const NOT_AN_ENUM_VALUE = '\u0000not-a-value';

/**
 * `refine` from a kind's compiled validator (an ajv function, as kubernetes-models ships one per
 * kind, made from the Go types' own OpenAPI schema), for what declarations cannot say: whether a
 * `number` is an integer (and of which format), and a string field's enum where the declaration
 * names only a `string` alias (CloudNativePG's kubebuilder enums sit on fields, not on the types).
 * The validator is shown an object with a probe at the path (0.5; a string no enum allows) and
 * asked what it refuses there. The validators report every error (allErrors), so the required
 * members missing around the probe do not hide it.
 * @param {((data: unknown) => boolean) & { errors?: { instancePath: string, keyword: string, params: Record<string, unknown> }[] | null }} validate
 * @returns {(path: string[], schema: Schema) => Schema}
 */
export function refineFromValidator(validate) {
  /** @param {string[]} path @param {unknown} probe */
  const refused = (path, probe) => {
    let specimen = probe;
    for (const segment of [...path].reverse())
      specimen = segment === ITEMS ? [specimen] : segment === VALUES ? { k: specimen } : { [segment]: specimen };
    const pointer = path
      .map((s) => `/${s === ITEMS ? '0' : s === VALUES ? 'k' : s.replaceAll('~', '~0').replaceAll('/', '~1')}`)
      .join('');
    validate(specimen);
    return (validate.errors ?? []).filter((e) => e.instancePath === pointer);
  };
  return (path, schema) => {
    if (schema.type === 'number') {
      const errors = refused(path, 0.5);
      if (!errors.some((e) => e.keyword === 'type' && e.params.type === 'integer')) return schema;
      const format = errors.find((e) => e.keyword === 'format')?.params.format;
      return { ...schema, type: 'integer', ...(typeof format === 'string' ? { format } : {}) };
    }
    if (schema.type === 'string' && !schema.enum) {
      const allowed = refused(path, NOT_AN_ENUM_VALUE).find((e) => e.keyword === 'enum')?.params.allowedValues;
      if (Array.isArray(allowed) && allowed.every((v) => typeof v === 'string')) return { ...schema, enum: allowed };
    }
    return schema;
  };
}

/**
 * The CustomResourceDefinition of one namespaced kind served at one version.
 * @param {{ group: string, version: string, kind: string, plural: string, schema: KindSchema }} kind
 */
export function customResourceDefinition({ group, version, kind, plural, schema }) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() },
      scope: 'Namespaced',
      versions: [
        {
          name: version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema.schema },
          ...(schema.hasStatus ? { subresources: { status: {} } } : {}),
        },
      ],
    },
  };
}
