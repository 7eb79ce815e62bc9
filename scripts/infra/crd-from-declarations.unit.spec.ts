// The CRD generator (ADR 0306) on small declarations served from memory, and its validator probe on
// the real CloudNativePG Cluster validator (the package's compiled ajv function, no I/O but its import).
import { describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  customResourceDefinition,
  refineFromValidator,
  type Schema,
  schemasFromDeclarations,
} from './crd-from-declarations.mjs';

const FILE = '/virtual/widget.d.ts';
const SOURCES = {
  [FILE]: `
import { IQuantity } from './quantity.js';
export type IMode = 'fast' | 'safe';
export type IPlainString = string;
/** A part of a widget. */
export interface IPart {
  /** The part's name. */
  name: string;
  weight?: IQuantity;
}
export interface ITree { label: string; children?: Array<ITree> }
/** A widget, the kind under test. */
export interface IWidget {
  apiVersion: 'example.dev/v1';
  kind: 'Widget';
  metadata: { name?: string; labels?: { [key: string]: string } };
  spec: {
    /** How many replicas. */
    replicas: number;
    ratio?: number;
    mode?: IMode;
    strategy?: IPlainString;
    paused?: boolean;
    parts?: Array<IPart>;
    labels?: { [key: string]: string };
    tree?: ITree;
    anything?: any;
    empty?: {};
  };
  status?: { ready?: boolean };
}
export interface INoStatus { apiVersion: string; kind: string; metadata: {}; spec?: { on: boolean } }
`,
  '/virtual/quantity.d.ts': 'export type IQuantity = number | string;\n',
};

// Each call compiles the declarations (with TypeScript's standard library): one for the plain walk.
let plain: ReturnType<typeof compile> | undefined;
const widget = () => {
  plain ??= compile();
  return plain;
};
function compile(refine?: (root: string, path: string[], schema: Schema) => Schema) {
  const out = schemasFromDeclarations({
    roots: [
      { file: FILE, typeName: 'IWidget' },
      { file: FILE, typeName: 'INoStatus' },
    ],
    sources: SOURCES,
    ...(refine ? { refine } : {}),
  });
  const w = out.get('IWidget');
  const n = out.get('INoStatus');
  assert.ok(w && n);
  return { w, n };
}
// biome-ignore lint: walking an untyped JSON schema
const at = (schema: any, ...names: string[]): any => names.reduce((s, n) => s.properties[n], schema);

describe('a CRD schema from TypeScript declarations', () => {
  it('makes objects of the members, required from the non-optional ones, with JSDoc descriptions', () => {
    const { w } = widget();
    const spec = at(w.schema, 'spec');
    assert.equal(w.schema.description, 'A widget, the kind under test.');
    assert.deepEqual(w.schema.required, ['spec']);
    assert.equal(spec.type, 'object');
    assert.deepEqual(spec.required, ['replicas']);
    assert.deepEqual(at(spec, 'replicas'), { description: 'How many replicas.', type: 'number' });
    assert.deepEqual(at(spec, 'paused'), { type: 'boolean' });
    assert.deepEqual(at(spec, 'strategy'), { type: 'string' });
  });

  it('leaves metadata to the API server and types apiVersion and kind as plain strings', () => {
    const { w } = widget();
    assert.deepEqual(at(w.schema, 'metadata'), { type: 'object' });
    assert.deepEqual(at(w.schema, 'apiVersion'), { type: 'string' });
    assert.deepEqual(at(w.schema, 'kind'), { type: 'string' });
  });

  it('makes a union of string literals an enum, arrays items, maps additionalProperties, string | number int-or-string', () => {
    const spec = at(widget().w.schema, 'spec');
    assert.deepEqual(at(spec, 'mode'), { type: 'string', enum: ['fast', 'safe'] });
    assert.deepEqual(spec.properties.parts, {
      type: 'array',
      items: {
        description: 'A part of a widget.',
        type: 'object',
        properties: {
          name: { description: "The part's name.", type: 'string' },
          weight: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        },
        required: ['name'],
      },
    });
    assert.deepEqual(at(spec, 'labels'), { type: 'object', additionalProperties: { type: 'string' } });
  });

  it('preserves unknown fields only where a type cannot be said structurally, and lists each such path', () => {
    const { w, n } = widget();
    const spec = at(w.schema, 'spec');
    assert.deepEqual(at(spec, 'anything'), { 'x-kubernetes-preserve-unknown-fields': true });
    assert.deepEqual(at(spec, 'empty'), { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    // A recursive type is walked once; its recurrence is preserved.
    assert.deepEqual(at(spec, 'tree', 'label'), { type: 'string' });
    assert.deepEqual(at(spec, 'tree', 'children').items, {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
    assert.deepEqual(w.preserved, [
      'spec.tree.children[] (recursive ITree)',
      'spec.anything (any)',
      'spec.empty (an object of no declared members)',
    ]);
    assert.deepEqual(n.preserved, []);
    assert.equal(JSON.stringify(spec).match(/preserve-unknown/g)?.length, 3, 'nowhere else');
  });

  it('asks refine about every string and number leaf by its path, and takes its answer', () => {
    const asked: string[] = [];
    const { w } = compile((root, path, schema) => {
      asked.push(`${root} ${path.join('/')} ${schema.type}`);
      if (path.join('/') === 'spec/replicas') return { ...schema, type: 'integer', format: 'int32' };
      if (path.join('/') === 'spec/strategy') return { ...schema, enum: ['a', 'b'] };
      return schema;
    });
    const spec = at(w.schema, 'spec');
    assert.deepEqual(at(spec, 'replicas'), { description: 'How many replicas.', type: 'integer', format: 'int32' });
    assert.deepEqual(at(spec, 'strategy'), { type: 'string', enum: ['a', 'b'] });
    assert.ok(asked.includes('IWidget spec/ratio number'));
    assert.ok(asked.includes('IWidget spec/parts/[]/name string'));
    assert.ok(asked.includes('IWidget spec/labels/{} string'));
    assert.ok(asked.includes('IWidget spec/mode string'), 'enums too');
    assert.ok(!asked.some((a) => a.includes('paused')), 'not booleans');
  });

  it('refuses a type the compiler cannot resolve rather than leaving it free', () => {
    assert.throws(
      () =>
        schemasFromDeclarations({
          roots: [{ file: '/virtual/broken.d.ts', typeName: 'IBroken' }],
          sources: {
            '/virtual/broken.d.ts': "import { IGone } from './gone.js';\nexport interface IBroken { spec: IGone }\n",
          },
        }),
      /spec: a type the compiler could not resolve/,
    );
  });

  it('makes a namespaced CRD, with the status subresource only for a kind that declares a status', () => {
    const { w, n } = widget();
    const crd = customResourceDefinition({
      group: 'example.dev',
      version: 'v1',
      kind: 'Widget',
      plural: 'widgets',
      schema: w,
    });
    assert.equal(crd.metadata.name, 'widgets.example.dev');
    assert.deepEqual(crd.spec.names, { kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget' });
    assert.equal(crd.spec.scope, 'Namespaced');
    const [v1] = crd.spec.versions;
    assert.deepEqual(v1?.subresources, { status: {} });
    assert.equal(v1?.schema.openAPIV3Schema, w.schema);
    const other = customResourceDefinition({
      group: 'example.dev',
      version: 'v1',
      kind: 'NoStatus',
      plural: 'nostatuses',
      schema: n,
    });
    assert.equal(other.spec.versions[0]?.subresources, undefined);
  });
});

describe('refineFromValidator, on CloudNativePG’s compiled Cluster validator', async () => {
  const file = join(
    resolve(import.meta.dirname, '..', '..'),
    'node_modules/@kubernetes-models/cloudnative-pg/_schemas/ComGithubCloudnativePgCloudnativePgApiV1Cluster.js',
  );
  const refine = refineFromValidator((await import(pathToFileURL(file).href)).validate);

  it('makes a number an integer where the validator refuses 0.5, with its format', () => {
    assert.deepEqual(refine(['spec', 'instances'], { type: 'number' }), { type: 'integer' });
    assert.deepEqual(refine(['spec', 'postgresGID'], { type: 'number' }), { type: 'integer', format: 'int64' });
  });

  it('gives a string the enum its field carries, and leaves a free string alone', () => {
    assert.deepEqual(refine(['spec', 'primaryUpdateStrategy'], { type: 'string' }), {
      type: 'string',
      enum: ['unsupervised', 'supervised'],
    });
    assert.deepEqual(refine(['spec', 'imageName'], { type: 'string' }), { type: 'string' });
  });

  it('reaches through arrays and maps', () => {
    // spec.managed.roles[].connectionLimit is an int64 of each role.
    assert.equal(refine(['spec', 'managed', 'roles', '[]', 'connectionLimit'], { type: 'number' }).type, 'integer');
  });
});
