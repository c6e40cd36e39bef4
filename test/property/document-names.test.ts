import { test } from 'tap'
import fc from 'fast-check'
import { restrictedDocument } from '../../lib/openapi/document.js'
import { OPERATION_KEY } from '../../lib/openapi/types.js'
import type { Json, RestrictedRoute } from '../../lib/openapi/types.js'
import { hiddenTrie } from '../../lib/visibility.js'

// Hidden fields have names of their own, which nothing else spells: any string or key of the document that holds `zq` names one.
const VISIBLE = ['a', 'b', 'c']
const HIDDEN = ['zq1', 'zq2']
const leaf = fc.constantFrom<Json>({ type: 'string' }, { type: 'integer', minimum: 0 }, { type: 'string', enum: ['x', 'y'] })

/** An object level, the dotted paths it declares, the hidden paths among them, and the components it put aside. */
interface Level { schema: Json, paths: string[], hidden: string[], components: Json }

/** A value that fits a schema, with every declared key, so that values hold the hidden fields too. */
function valueOf (schema: Json, components: Json): unknown {
  if (typeof schema.$ref === 'string') return valueOf(components[schema.$ref.split('/').pop() as string], components)
  if (schema.type === 'array') return [valueOf(schema.items, components)]
  if (schema.properties === undefined) return schema.type === 'integer' ? 1 : 'x'
  return Object.fromEntries(Object.entries(schema.properties as Json).map(([name, property]) => [name, valueOf(property, components)]))
}

/** Keywords that name this level's fields, or hold its values, drawn at random over its names. */
function keywordsOf (names: string[], properties: Json, components: Json): fc.Arbitrary<Json> {
  const some = fc.subarray(names, { minLength: 1 })
  const one = fc.constantFrom(...names)
  const value = valueOf({ properties }, components)
  return fc.record({
    required: some,
    dependentRequired: fc.tuple(one, some).map(([name, others]) => ({ [name]: others })),
    dependentSchemas: fc.tuple(one, one).map(([name, other]) => ({ [name]: { required: [other] }, x: { properties: { [other]: { minLength: 1 } } } })),
    dependencies: fc.tuple(one, some, one).map(([name, others, other]) => ({ [name]: others, x: { required: [other] } })),
    if: one.map((name) => ({ properties: { [name]: { const: 'x' } }, required: [name] })),
    then: some.map((required) => ({ required })),
    else: one.map((name) => ({ not: { required: [name] } })),
    not: one.map((name) => ({ required: [name] })),
    patternProperties: one.map((name) => ({ [`^${name}$`]: { type: 'string' }, '^other': { type: 'string' } })),
    additionalProperties: fc.constantFrom(false, { type: 'integer' }),
    propertyNames: some.map((enumerated) => ({ enum: enumerated })),
    minProperties: fc.constant(1),
    example: fc.constant(value),
    default: fc.constant(value),
    const: fc.constant(value),
    enum: fc.constant([value]),
    examples: fc.constant([value, 'other'])
  }, { requiredKeys: [] })
}

/** An object level up to `depth` levels of objects deep, with hidden fields at random places. */
function level (depth: number, prefix: string, components: Json): fc.Arbitrary<Level> {
  const child = (name: string): fc.Arbitrary<{ schema: Json, paths: string[], hidden: string[] }> => {
    const path = prefix + name
    const hiddenHere = HIDDEN.includes(name) ? [path] : []
    const leaves = leaf.map((schema) => ({ schema, paths: [path], hidden: hiddenHere }))
    if (depth === 0 || hiddenHere.length > 0) return leaves
    return fc.oneof(
      leaves,
      level(depth - 1, `${path}.`, components).chain((inner) => fc.constantFrom(
        // Inline, as an array's items, or as a component that a `$ref` names.
        inner.schema,
        { type: 'array', items: inner.schema },
        { $ref: `#/components/schemas/${componentFor(components, inner.schema)}` }
      ).map((schema) => ({ schema, paths: [path, ...inner.paths], hidden: inner.hidden })))
    )
  }
  return fc.uniqueArray(fc.constantFrom(...VISIBLE, ...HIDDEN), { minLength: 2, maxLength: 4 }).chain((names) =>
    fc.tuple(...names.map(child)).chain((children) => {
      const properties = Object.fromEntries(names.map((name, index) => [name, children[index].schema]))
      return fc.tuple(keywordsOf(names, properties, components), fc.boolean(), fc.constantFrom(...names)).map(([keywords, tagged, tag]) => {
        const schema: Json = { type: 'object', properties, ...keywords }
        const hidden = [...children.flatMap((each) => each.hidden), ...names.filter((name) => HIDDEN.includes(name)).map((name) => prefix + name)]
        const paths = children.flatMap((each) => each.paths)
        if (!tagged) return { schema, paths, hidden, components }
        // Two variants told apart by one of this level's names, visible or hidden, one inline and one a component.
        const variant = (kind: string): Json => ({ type: 'object', required: [tag], properties: { ...properties, [tag]: { type: 'string', enum: [kind] } } })
        const other = componentFor(components, variant('two'))
        const tagRef = `#/components/schemas/${other}`
        return { schema: { oneOf: [variant('one'), { $ref: tagRef }], discriminator: { propertyName: tag, mapping: { two: tagRef, one: other } } }, paths, hidden, components }
      })
    })
  )
}

function componentFor (components: Json, schema: Json): string {
  const name = `C${Object.keys(components).length + 1}`
  components[name] = schema
  return name
}

/** A Swagger 2.0 form of an OpenAPI 3 schema: its components are definitions, and a discriminator is the property's name alone. */
function swagger2 (value: unknown): unknown {
  if (typeof value === 'string') return value.replace('#/components/schemas/', '#/definitions/')
  if (Array.isArray(value)) return value.map(swagger2)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, key === 'discriminator' ? member.propertyName : swagger2(member)]))
}

/** Every string and key of the document that the operation reaches, following `$ref`s into the components. */
function reachedTexts (document: Json, operation: Json): string[] {
  const texts: string[] = []
  const seen = new Set<string>()
  const [prefix, schemas] = document.swagger === '2.0' ? ['#/definitions/', document.definitions] : ['#/components/schemas/', document.components.schemas]
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      texts.push(value)
      if (value.startsWith(prefix) && !seen.has(value)) {
        seen.add(value)
        visit(schemas[value.slice(prefix.length)])
      } else if (!value.startsWith('#') && Object.hasOwn(schemas, value) && !seen.has(value)) {
        // A discriminator's mapping may name a component by its name alone.
        seen.add(value)
        visit(schemas[value])
      }
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item)
    } else if (value !== null && typeof value === 'object') {
      for (const [key, member] of Object.entries(value)) {
        texts.push(key)
        visit(member)
      }
    }
  }
  visit(operation)
  return texts
}

const shapes: Array<[RestrictedRoute['shape'], (records: Json) => Json]> = [
  [{ kind: 'object' }, (records) => records],
  [{ kind: 'array' }, (records) => ({ type: 'array', items: records })],
  [{ kind: 'envelope', key: 'results' }, (records) => ({ type: 'object', required: ['results'], properties: { count: { type: 'integer' }, results: { type: 'array', items: records } } })]
]

const documentCase = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 3 }), fc.constantFrom('3.0.3', '3.1.0', '2.0')).chain(([shape, maxDepth, openapi]) => {
  const components: Json = {}
  return level(2, '', components).chain((records) => fc.subarray(records.paths).map((set) => ({ records, shape, maxDepth, openapi, set })))
})

test('whatever the schema\'s shape, a caller\'s document names none of the fields hidden from it, and is served', async (t) => {
  let hiding = 0
  fc.assert(fc.property(documentCase, ({ records, shape, maxDepth, openapi, set }) => {
    const [recordsShape, around] = shapes[shape]
    const route: RestrictedRoute = {
      method: 'GET', url: '/things', statusKey: '200', shape: recordsShape, maxDepth, onlyParam: 'only', deferParam: 'defer', paths: records.paths, fieldSets: { set }, defaultFields: set
    }
    const example = valueOf(around(records.schema), records.components)
    const operation = (response: Json): Json => ({ paths: { '/things': { get: { [OPERATION_KEY]: '1', operationId: 'getThings', responses: { 200: response } } } } })
    const document = openapi === '2.0'
      ? { swagger: '2.0', info: { title: 't', version: '1' }, definitions: swagger2(records.components), ...operation({ description: 'ok', schema: swagger2(around(records.schema)), examples: { 'application/json': example } }) }
      : { openapi, info: { title: 't', version: '1' }, components: { schemas: records.components }, ...operation({ content: { 'application/json': { schema: around(records.schema), example } } }) }
    const anonymous = restrictedDocument(document, new Map([['1', route]]), new Map([['1', hiddenTrie(records.hidden)]])) as Json
    const named = reachedTexts(anonymous, anonymous.paths['/things'].get).filter((text) => text.includes('zq'))
    if (named.length > 0) throw new Error(`hiding ${records.hidden.join(', ')}, the document names ${named.join(', ')}`)
    if (records.hidden.length > 0) hiding++
  }), { numRuns: 300 })
  t.ok(hiding > 150, `${hiding} of 300 documents hid some field`)
})
