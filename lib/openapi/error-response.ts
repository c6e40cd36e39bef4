/**
 * Documents the plugin's 400: its body as one component
 * (`RestrictedFieldsError`), merged with the route's own 400 where it has one.
 * Where the app answers errors with a handler of its own, the body is the
 * app's: the 400 is documented with no body the plugin cannot promise.
 */
import { InvalidParameterError, PathTooDeepError, TooManyFieldsError, UnknownFieldError, UnknownFieldSetError } from '../errors.js'
import { isRecord } from '../json.js'
import type { Components } from './components.js'
import { withNote } from './notes.js'
import type { Json } from './types.js'

/** The name of the component that documents the plugin's 400 body (a free variant if taken by another schema). */
const ERROR_COMPONENT = 'RestrictedFieldsError'

/** The codes of the 400 errors the plugin sends. */
export const CLIENT_ERROR_CODES: readonly string[] = [
  new UnknownFieldError(''), new InvalidParameterError('', ''), new TooManyFieldsError('', '', 0), new PathTooDeepError('', '', 0),
  new UnknownFieldSetError('')
].map((error) => error.code)

const ERROR_SCHEMA = {
  type: 'object',
  description: 'A restriction parameter names an undeclared field, is malformed, names too many fields, has too deep a path or names an unknown field set.',
  required: ['statusCode', 'code', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer', enum: [400] },
    code: { type: 'string', enum: CLIENT_ERROR_CODES },
    error: { type: 'string' },
    message: { type: 'string' }
  }
}

const ERROR_DESCRIPTION = 'Bad Request: a restriction parameter is invalid (`code` says how).'

/** The 400 of a route whose errors the app's own handler answers: the plugin knows why it is sent, not what it holds. */
const APP_ERROR_DESCRIPTION = "Bad Request: a restriction parameter is invalid (the body is what the app's error handler sends)."

const ALSO_SENT = 'Also sent when a restriction parameter is invalid.'

/** The `$ref` of the error component in each document, added on first use. */
const errorRefs = new WeakMap<Components, string>()

function errorSchema (components: Components): Json {
  let ref = errorRefs.get(components)
  if (ref === undefined) {
    const name = components.freeName(ERROR_COMPONENT, (schema) => JSON.stringify(schema) !== JSON.stringify(ERROR_SCHEMA))
    components.schemas[name] = structuredClone(ERROR_SCHEMA)
    ref = components.ref(name)
    errorRefs.set(components, ref)
  }
  return { $ref: ref }
}

/**
 * Adds the plugin's 400 to an operation's responses. With `ownErrorHandler`,
 * the app's error handler writes the body: a route's own 400 is kept as it
 * is (its schema serializes what the handler sends), and a route without
 * one gets a 400 with a description and no body.
 */
export function documentError (components: Components, operation: Json, ownErrorHandler = false): void {
  const responses: Json = isRecord(operation.responses) ? operation.responses : (operation.responses = {})
  // A route's own 400 (or the 4XX or default response its 400s fell under) is kept: its body is one more possibility.
  const own = [responses['400'], responses['4XX'], responses['4xx'], responses.default].find(isRecord)
  if (ownErrorHandler) {
    responses['400'] = own === undefined ? { description: APP_ERROR_DESCRIPTION } : { ...own, description: withNote(own.description, ALSO_SENT) }
    return
  }
  const ours = errorSchema(components)
  if (own === undefined) {
    responses['400'] = components.version === '2.0'
      ? { description: ERROR_DESCRIPTION, schema: ours }
      : { description: ERROR_DESCRIPTION, content: { 'application/json': { schema: ours } } }
    return
  }
  const response: Json = { ...own, description: withNote(own.description, ALSO_SENT) }
  if (components.version === '2.0') {
    // Swagger 2.0 has no anyOf: a route's own 400 body stays the documented one.
    if (response.schema === undefined) response.schema = ours
  } else {
    const content: Json = {}
    for (const [type, media] of Object.entries(isRecord(own.content) ? own.content : {})) {
      content[type] = isRecord(media) && media.schema !== undefined && type.includes('json')
        ? { ...media, schema: { anyOf: [media.schema, ours] } }
        : media
    }
    content['application/json'] ??= { schema: ours }
    response.content = content
  }
  responses['400'] = response
}
