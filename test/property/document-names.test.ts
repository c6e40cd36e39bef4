import { test } from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import fastifyRestrictedFields from '../../lib/index.js'
import { restrictedRoutesSource } from '../../lib/client/generate.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'
import { restrictedDocument } from '../../lib/openapi/document.js'
import { OPERATION_KEY } from '../../lib/openapi/types.js'
import type { Json, RestrictedRoute } from '../../lib/openapi/types.js'
import { hiddenTrie } from '../../lib/hidden-paths.js'
import { parameterChoices } from '../helpers.js'

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
    dependentSchemas: fc.tuple(one, one).map(([name, other]) => ({
      [name]: { required: [other] },
      x: { properties: { [other]: { minLength: 1 } } }
    })),
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
        const ownHidden = names.filter((name) => HIDDEN.includes(name)).map((name) => prefix + name)
        const hidden = [...children.flatMap((each) => each.hidden), ...ownHidden]
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
      method: 'GET', url: '/things', statusKey: '200', shape: recordsShape, maxDepth, maxListedFields: 5, onlyParam: 'only', deferParam: 'defer', paths: records.paths, fieldSets: { set }, defaultFields: set
    }
    const example = valueOf(around(records.schema), records.components)
    const operation = (response: Json): Json => ({ paths: { '/things': { get: { [OPERATION_KEY]: '1', operationId: 'getThings', responses: { 200: response } } } } })
    const document = openapi === '2.0'
      ? { swagger: '2.0', info: { title: 't', version: '1' }, definitions: swagger2(records.components), ...operation({ description: 'ok', schema: swagger2(around(records.schema)), examples: { 'application/json': example } }) }
      : { openapi, info: { title: 't', version: '1' }, components: { schemas: records.components }, ...operation({ content: { 'application/json': { schema: around(records.schema), example } } }) }
    const built = restrictedDocument(document, new Map([['1', route]]), new Map([['1', hiddenTrie(records.hidden)]]))
    if ('refused' in built) throw new Error(`hiding ${records.hidden.join(', ')}, the document is refused: ${JSON.stringify(built.refused)}`)
    const anonymous = built.document as Json
    const named = reachedTexts(anonymous, anonymous.paths['/things'].get).filter((text) => text.includes('zq'))
    if (named.length > 0) throw new Error(`hiding ${records.hidden.join(', ')}, the document names ${named.join(', ')}`)
    if (records.hidden.length > 0) hiding++
  }), { numRuns: 300 })
  t.ok(hiding > 150, `${hiding} of 300 documents hid some field`)
})

// Every description a caller gets, through the app. The keyword list here is the test's own (a second opinion on
// JSON Schema): each keyword below places this level's names, hidden or not, where its kind of value holds them.
const NAMES = ['a', 'b', 'zqa', 'zqb']
const HIDDEN_MARK = /^zq/
const STAFF = { 'x-staff': 'yes' }
const RUNS = process.env.FST_DEEP === undefined ? 12 : 400
// The shapes the relaxer does not take hidden names out of yet (issue 45's leaks): with these, the last check refuses.
// A local `$defs` entry and a response link are the others.
const UNKNOWN_TO_RELAXER = new Set(['propertyNamesNot', 'propertyNamesAnyOf', 'propertyNamesRef', 'patternWithoutU'])

/** A keyword of a level, given the level's names, its properties and a value that fits it. */
type Placement = (names: string[], value: Json) => fc.Arbitrary<Json>
const pick = (names: string[]): fc.Arbitrary<string> => fc.constantFrom(...names)
const PLACEMENTS: Record<string, Placement> = {
  // names
  required: (names) => fc.subarray(names, { minLength: 1 }).map((required) => ({ required })),
  dependentRequired: (names) => fc.tuple(pick(names), pick(names)).map(([name, other]) => ({ dependentRequired: { [name]: [other] } })),
  propertyNamesEnum: (names) => fc.constant({ propertyNames: { enum: names } }),
  propertyNamesNot: (names) => pick(names).map((name) => ({ propertyNames: { not: { const: name } } })),
  propertyNamesAnyOf: (names) => fc.constant({ propertyNames: { anyOf: names.map((name) => ({ const: name })) } }),
  propertyNamesRef: (names) => fc.constant({ propertyNames: { $ref: '#/$defs/names' }, $defs: { names: { enum: names } } }),
  // patterns over names, one valid only without the u flag
  patternProperties: (names) => pick(names).map((name) => ({ patternProperties: { [`^${name}$`]: { type: 'string' } } })),
  patternWithoutU: (names) => pick(names).map((name) => ({ patternProperties: { [`^${name[0]}\\-?${name.slice(1)}$`]: { type: 'string' } } })),
  propertyNamesPattern: (names) => pick(names).map((name) => ({ propertyNames: { pattern: `^(${name}|other)$` } })),
  // schemas of the same level and below
  dependentSchemas: (names) => fc.tuple(pick(names), pick(names))
    .map(([name, other]) => ({ dependentSchemas: { [name]: { required: [other] } } })),
  if: (names) => pick(names).map((name) => ({ if: { required: [name] }, then: { required: [name] }, else: { not: { required: [name] } } })),
  not: (names) => pick(names).map((name) => ({ not: { required: [name] } })),
  allOf: (names) => pick(names).map((name) => ({ allOf: [{ required: [name] }] })),
  additionalProperties: () => fc.constantFrom<Json>({ additionalProperties: false }, { additionalProperties: { type: 'integer' } }),
  // instance values
  example: (names, value) => fc.constant({ example: value }),
  default: (names, value) => fc.constant({ default: value }),
  examples: (names, value) => fc.constant({ examples: [value] }),
  enum: (names, value) => fc.constant({ enum: [value] }),
  const: (names, value) => fc.constant({ const: value })
}

/**
 * An object level with properties of `names` (one of them an object of the next level, inline or a local `$defs`
 * entry), and random keywords over its names; with the `$defs` it adds to the root schema's, named by `depth`.
 */
function placedLevel (depth: number): fc.Arbitrary<{ schema: Json, defs: Json, known: boolean }> {
  return fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 2, maxLength: 4 }).chain((names) => {
    const nested = depth === 0 ? fc.constant(null) : fc.option(fc.tuple(placedLevel(depth - 1), fc.boolean()), { nil: null })
    return fc.tuple(nested, fc.subarray(Object.keys(PLACEMENTS), { maxLength: 4 })).chain(([inner, chosen]) => {
      const properties: Json = Object.fromEntries(names.map((name) => [name, { type: 'string' }]))
      const defs: Json = {}
      if (inner !== null) {
        const [level, local] = inner
        Object.assign(defs, level.defs)
        // A nested level, under a visible name; through a local `$defs` as Zod 4 and TypeBox write it.
        properties.o = local ? { $ref: `#/$defs/inner${depth}` } : level.schema
        if (local) defs[`inner${depth}`] = level.schema
      }
      const value = Object.fromEntries(names.map((name) => [name, 'x']))
      return fc.tuple(...chosen.map((keyword) => PLACEMENTS[keyword](names, value))).map((placed) => {
        const schema: Json = { type: 'object', properties }
        for (const keywords of placed) {
          for (const [keyword, held] of Object.entries(keywords)) {
            if (keyword === '$defs') defs[`names${depth}`] = held.names
            else if (keyword === 'propertyNames' && held.$ref !== undefined) schema.propertyNames = { $ref: `#/$defs/names${depth}` }
            else schema[keyword] = held
          }
        }
        const known = chosen.every((keyword) => !UNKNOWN_TO_RELAXER.has(keyword)) && (inner === null || (!inner[1] && inner[0].known))
        return { schema, defs, known }
      })
    })
  })
}

/** A route's response schema: the top level, with every level's `$defs`; and whether the relaxer knows every shape it holds. */
const routeSchema = placedLevel(2).map(({ schema, defs, known }) => ({
  schema: Object.keys(defs).length === 0 ? schema : { ...schema, $defs: defs },
  known
}))

/**
 * The app of one case: a route whose 200 is `schema`, documented in `version`, with the MCP endpoint; the rule hides
 * `hidden.paths` from callers without the staff header.
 */
async function describedApp (schema: Json, version: string, links: boolean, hidden: { paths: string[] }): Promise<FastifyInstance> {
  const app = Fastify()
  const info = { title: 'things', version: '1.0.0' }
  await app.register(swagger, version === '2.0' ? { swagger: { info } } : { openapi: { openapi: version, info } })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers['x-staff'] === 'yes' ? [] : hidden.paths })
  if (version !== '2.0') await app.register(restrictedFieldsMcp)
  const route: Json = { restrictFields: true, schema: { operationId: 'getThings', response: { 200: schema } } }
  // A link that reads a hidden field of the body, as @fastify/swagger takes it from the route.
  if (links && version !== '2.0') route.links = { 200: { next: { operationId: 'getThings', parameters: { ref: '$response.body#/zqa' } } } }
  app.get('/things', route, async () => ({}))
  app.get('/docs', async (request) => await app.restrictedFieldsDocument(request, { yaml: request.query !== null && 'yaml' in (request.query as Json) }))
  await app.ready()
  return app
}

/**
 * Every description a caller gets, as text: the document as JSON and as YAML, the MCP tools, the generated client,
 * the 400s' messages; a refused document as its error body.
 */
async function descriptions (
  app: FastifyInstance,
  version: string,
  headers: Json
): Promise<Array<{ kind: string, status: number, text: string }>> {
  const json = await app.inject({ url: '/docs', headers })
  const yaml = await app.inject({ url: '/docs?yaml', headers })
  const texts = [{ kind: 'json', status: json.statusCode, text: json.body }, { kind: 'yaml', status: yaml.statusCode, text: yaml.body }]
  if (version !== '2.0') {
    const tools = await app.inject({ method: 'POST', url: '/mcp', headers: { ...headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })
    texts.push({ kind: 'tools/list', status: tools.statusCode, text: tools.body })
    if (json.statusCode === 200) texts.push({ kind: 'client', status: 200, text: restrictedRoutesSource(json.json()) })
  }
  for (const only of ['nope', 'o.nope', 'a.nope']) {
    const refused = await app.inject({ url: `/things?only=${only}`, headers })
    texts.push({ kind: `400 for ${only}`, status: refused.statusCode, text: refused.body })
  }
  return texts
}

/** Whether a text names `name` as a word of its own (`zqa`, not `zqab`). */
const names = (text: string, name: string): boolean => new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).test(text)

test('through every description a caller gets, a field hidden from it is never named, whatever keyword places it; staff\'s descriptions name it', async (t) => {
  let refused = 0
  let served = 0
  await fc.assert(fc.asyncProperty(routeSchema, fc.constantFrom('3.0.3', '3.1.0', '2.0'), fc.boolean(), async ({ schema, known }, version, links) => {
    const hidden = { paths: [] as string[] }
    const app = await describedApp(schema, version, links, hidden)
    try {
      // The rule hides every declared field named zq…, as the staff document's `only` choices declare them.
      const staffDocument = (await app.inject({ url: '/docs', headers: STAFF })).json()
      const only = staffDocument.paths['/things'].get.parameters.find((parameter: Json) => parameter.name === 'only')
      const declared = parameterChoices(staffDocument, only) as string[]
      hidden.paths = declared.filter((path) => path.split('.').some((segment) => HIDDEN_MARK.test(segment)) && !HIDDEN_MARK.test(path.split('.').slice(0, -1).join('.')))
        .filter((path, index, all) => !all.some((other) => path.startsWith(`${other}.`)))
      const hiddenNames = [...new Set(hidden.paths.map((path) => path.slice(path.lastIndexOf('.') + 1)))]
      // A name also declared at a place the rule leaves visible is no secret: staff's view decides.
      const secret = hiddenNames.filter((name) => !declared.some((path) => path.endsWith(name) && !hidden.paths.some((hiddenPath) => path === hiddenPath || path.startsWith(`${hiddenPath}.`))))
      for (const { kind, status, text } of await descriptions(app, version, {})) {
        if (kind === 'json' && status === 500) {
          t.equal(JSON.parse(text).code, 'FST_RESTRICTED_FIELDS_DOCUMENT_LEAK', 'a refused document is the coded 500')
          // Where the relaxer knows every shape, it alone holds: the document is served, never refused.
          if (known && !(links && version !== '2.0')) throw new Error(`${version}: a document of shapes the relaxer knows was refused: ${JSON.stringify(schema)}`)
          refused++
        } else if (kind === 'json') {
          served++
        }
        // The link reads the top level's `zqa`: a path of its own, hidden only where the rule hides that path
        // (issue 50: by path, never by name).
        const read = links && !hidden.paths.includes('zqa') ? text.replaceAll('$response.body#/zqa', '') : text
        const named = secret.filter((name) => names(read, name))
        if (named.length > 0) throw new Error(`${version}, hiding ${hidden.paths.join(', ')}: the anonymous ${kind} (${status}) names ${named.join(', ')}`)
      }
      for (const { kind, status, text } of await descriptions(app, version, STAFF)) {
        if (kind.startsWith('400') || kind === 'client') continue
        const unnamed = hiddenNames.filter((name) => !names(text, name))
        if (status !== 200 || unnamed.length > 0) throw new Error(`${version}: staff's ${kind} (${status}) does not name ${unnamed.join(', ')}`)
      }
    } finally {
      await app.close()
    }
  }), { numRuns: RUNS })
  t.equal(served + refused, RUNS, `${served} served, ${refused} refused`)
})
