import createError from '@fastify/error'
import type { FastifyErrorConstructor } from '@fastify/error'

// Client errors skip stack capture: they are expected, frequent and may be
// triggered on purpose, so they should cost as little as possible.

// Each constructor spells out its type: the code and status are then part of
// it, so `instanceof` narrows to them, and the emitted declarations name
// `FastifyErrorConstructor` itself (the inferred form,
// `createError.FastifyErrorConstructor`, does not resolve under the `bundler`
// and `node10` module resolutions).
type CodedErrorConstructor<Code extends string, StatusCode extends number, Args extends unknown[]> =
  FastifyErrorConstructor<{ code: Code, statusCode: StatusCode }, Args>

/** 400: a requested field is not declared for the route. */
export const UnknownFieldError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', 400, [string]> = createError(
  'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', '%s', 400, TypeError, false
)

/** 400: a restriction parameter is neither a string nor a list of strings. */
export const InvalidParameterError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_INVALID_PARAMETER', 400, [string, string]> = createError(
  'FST_RESTRICTED_FIELDS_INVALID_PARAMETER',
  "Query parameter '%s' must be a field name or a list of field names, got %s",
  400, TypeError, false
)

/** 400: more field names than `maxFields` in one request. */
export const TooManyFieldsError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_TOO_MANY_FIELDS', 400, [string, string, number]> = createError(
  'FST_RESTRICTED_FIELDS_TOO_MANY_FIELDS',
  "Too many field names in query parameters '%s' and '%s': at most %d are allowed",
  400, RangeError, false
)

/** 400: a dotted path longer than `maxDepth` segments. */
export const PathTooDeepError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_PATH_TOO_DEEP', 400, [string, string, number]> = createError(
  'FST_RESTRICTED_FIELDS_PATH_TOO_DEEP',
  "Field path '%s' in query parameter '%s' is too deep: at most %d levels are allowed",
  400, RangeError, false
)

/** Thrown at registration or route declaration: an option has a wrong value. */
export const InvalidOptionError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_INVALID_OPTION', 500, [string]> = createError(
  'FST_RESTRICTED_FIELDS_INVALID_OPTION', '%s', 500, TypeError
)

/** Thrown at route declaration: the route has no schema and no `fields` list. */
export const NoDeclaredFieldsError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_NO_DECLARED_FIELDS', 500, [string]> = createError(
  'FST_RESTRICTED_FIELDS_NO_DECLARED_FIELDS',
  'Route %s has restrictFields enabled but declares no fields: add a response schema for status 200 (or 2xx), or list the fields with restrictFields: { fields: [...] }',
  500
)

/** Thrown at route declaration: the response schema has a `$ref` that cannot be resolved. */
export const UnresolvedReferenceError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_UNRESOLVED_REFERENCE', 500, [string, string]> = createError(
  'FST_RESTRICTED_FIELDS_UNRESOLVED_REFERENCE',
  "Route %s: cannot resolve $ref '%s' in its response schema; add the referenced schema with fastify.addSchema() before declaring the route",
  500
)

/** Thrown at route declaration: the response schema is neither JSON Schema nor a Standard JSON Schema. */
export const UnreadableSchemaError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_UNREADABLE_SCHEMA', 500, [string, string, string]> = createError(
  'FST_RESTRICTED_FIELDS_UNREADABLE_SCHEMA',
  'Route %s: cannot read the fields of its response schema for status %s, which is %s; the plugin reads JSON Schema objects (plain or TypeBox) and schemas that implement Standard JSON Schema (~standard.jsonSchema, as Zod 4 does)',
  500
)

/**
 * Thrown at route declaration: a route's own `resultsKey` names no array of
 * records in any of its successful response schemas, so the route would be
 * read as one object or a plain array, and the key ignored.
 */
export const InvalidResultsKeyError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_INVALID_RESULTS_KEY', 500, [string, string, string, string]> = createError(
  'FST_RESTRICTED_FIELDS_INVALID_RESULTS_KEY',
  "Route %s: resultsKey '%s' is not an array of records in its %s response schema; %s",
  500
)

/** Thrown at route declaration: a declared property has a name that a request could not name. */
export const UnaddressableFieldError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_UNADDRESSABLE_FIELD', 500, [string, string, string]> = createError(
  'FST_RESTRICTED_FIELDS_UNADDRESSABLE_FIELD',
  'Route %s: the response property %s cannot be named in a request or a rule, because %s',
  500
)

/** Thrown at route declaration: a part of the response schema cannot be read into fields. */
export const UnsupportedSchemaError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_UNSUPPORTED_SCHEMA', 500, [string, string, string, string, string]> = createError(
  'FST_RESTRICTED_FIELDS_UNSUPPORTED_SCHEMA',
  "Route %s: cannot read the fields of its response schema for status %s at '%s' (keyword '%s'): %s",
  500
)

/** 500: a `hiddenFields` rule returned something other than declared field names. */
export const InvalidHiddenFieldsError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_INVALID_HIDDEN_FIELDS', 500, [string, string]> = createError(
  'FST_RESTRICTED_FIELDS_INVALID_HIDDEN_FIELDS',
  'Route %s: the hiddenFields rule %s',
  500
)

/** 500: a success reply was sent on a route whose `hiddenFields` rule failed for the request (an error handler answering 2xx, say). */
export const HiddenFieldsUnknownError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_HIDDEN_FIELDS_UNKNOWN', 500, [string]> = createError(
  'FST_RESTRICTED_FIELDS_HIDDEN_FIELDS_UNKNOWN',
  'Route %s: a success reply was sent after the hiddenFields rule failed; what the request may see is unknown, so the reply is refused',
  500
)

/** 500: a caller's document was asked for, but the plugin's `preHandler` that makes it did not run (another hook replaced it). */
export const DocumentNotMadeError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_DOCUMENT_NOT_MADE', 500, []> = createError(
  'FST_RESTRICTED_FIELDS_DOCUMENT_NOT_MADE',
  "The caller's OpenAPI document was not made: the uiHooks.preHandler of restrictedFieldsSwaggerUi() did not run for this request " +
    '(pass your own uiHooks to restrictedFieldsSwaggerUi() instead of replacing it); the complete document is refused',
  500
)

/**
 * 500: a caller's OpenAPI document would still describe, or refer to, a
 * field that the caller may not see, in a shape the plugin does not know how
 * to leave it out of. The message names neither the field nor the place:
 * the caller sees it. The server's log says which route and where.
 */
export const DocumentLeakError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_DOCUMENT_LEAK', 500, []> = createError(
  'FST_RESTRICTED_FIELDS_DOCUMENT_LEAK',
  "The caller's OpenAPI document would describe a field hidden from this caller, so it is refused (the server's log says where)",
  500
)

/** 400: `only` names a field set (`@name`) that the route does not have. */
export const UnknownFieldSetError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD_SET', 400, [string]> = createError(
  'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD_SET', '%s', 400, TypeError, false
)

/** Thrown at registration or route declaration: a field set or the default fields are misdeclared (a bad name, an undeclared field). */
export const InvalidFieldSetError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET', 500, [string]> = createError(
  'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET', '%s', 500, TypeError
)

/** Shortens client text quoted in an error message, so a huge name cannot bloat the response. */
export function quote (text: string, max = 64): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

/** 500: a field's source names a column or relation its table does not have, or a declared field has none. */
export const InvalidSourceError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_INVALID_SOURCE', 500, [string]> = createError(
  'FST_RESTRICTED_FIELDS_INVALID_SOURCE', '%s', 500
)

/**
 * 500: a request's fields could not be loaded, as a field's source does not
 * fit its table. The message names no table or column: the client sees it.
 * Its `cause`, an InvalidSourceError that names them, goes to the server's log.
 */
export const LoadFailedError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_LOAD_FAILED', 500, [{ cause: unknown }]> = createError(
  'FST_RESTRICTED_FIELDS_LOAD_FAILED',
  "The fields of this response could not be loaded: a field's source does not fit the data it is loaded from (the server's log says which)",
  500
)

/**
 * 500: `request.restrictedFields` was read on an opted-in route while what the
 * request may see was not known: before the route's `hiddenFields` rule ran,
 * or after it failed. Answering "every field" then would load what the
 * request's selection leaves out.
 */
export const SelectionNotReadError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_SELECTION_NOT_READ', 500, [string, string]> = createError(
  'FST_RESTRICTED_FIELDS_SELECTION_NOT_READ',
  'Route %s: request.restrictedFields was read %s',
  500
)

/** 400, as an MCP tool's error result: the tool's arguments are not an object of its arguments with values it can send. */
export const InvalidArgumentsError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_INVALID_ARGUMENTS', 400, [string]> = createError(
  'FST_RESTRICTED_FIELDS_INVALID_ARGUMENTS', '%s', 400, TypeError, false
)

/** 400, as an MCP tool's error result: the arguments would make a query string longer than `maxArgumentsLength`. */
export const ArgumentsTooLongError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_ARGUMENTS_TOO_LONG', 400, [number]> = createError(
  'FST_RESTRICTED_FIELDS_ARGUMENTS_TOO_LONG', 'The arguments are too long: at most %d characters of query string are allowed', 400, RangeError, false
)

/**
 * 400, as an MCP tool's error result: the route's reply is larger than one result may be
 * (`maxResultTokens`); the message says how to ask for less.
 */
export const ResultTooLargeError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_RESULT_TOO_LARGE', 400, [string]> = createError(
  'FST_RESTRICTED_FIELDS_RESULT_TOO_LARGE', '%s', 400, RangeError, false
)

/** 500, as an MCP tool's error result: the route failed; the reason is in the server's log, never in the result. */
export const ToolFailedError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_TOOL_FAILED', 500, []> = createError(
  'FST_RESTRICTED_FIELDS_TOOL_FAILED', 'The route failed to answer; the server logged why', 500, Error, false
)

/**
 * Thrown when the app becomes ready: the MCP endpoint describes its tools from the OpenAPI document,
 * which needs @fastify/swagger in OpenAPI 3 mode.
 */
export const McpWithoutDocumentError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_MCP_WITHOUT_DOCUMENT', 500, []> = createError(
  'FST_RESTRICTED_FIELDS_MCP_WITHOUT_DOCUMENT',
  'The MCP endpoint describes its tools from the OpenAPI document: register @fastify/swagger (with an openapi option) and then fastify-restricted-fields before it',
  500
)

/**
 * 500, as the MCP endpoint's JSON-RPC error: a caller's tools would take more
 * than the endpoint's schema budget (`maxSchemaNodes`) to describe; the
 * server logged which, and serves other requests.
 */
export const ToolSchemasTooLargeError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_TOOL_SCHEMAS_TOO_LARGE', 500, []> = createError(
  'FST_RESTRICTED_FIELDS_TOOL_SCHEMAS_TOO_LARGE', 'The tools of this API are too large to describe; the server logged why', 500, RangeError, false
)

/** 400, as an MCP tool's error result: a `find_operations` query longer, or of more words, than a search takes. */
export const QueryTooLongError: CodedErrorConstructor<'FST_RESTRICTED_FIELDS_QUERY_TOO_LONG', 400, [string]> = createError(
  'FST_RESTRICTED_FIELDS_QUERY_TOO_LONG', '%s', 400, RangeError, false
)
