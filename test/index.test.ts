import { test } from 'tap'
import * as entry from '../lib/index.js'

test('the plugin is exported as default and as fastifyRestrictedFields, with fastify-plugin metadata', async (t) => {
  t.equal(entry.default, entry.fastifyRestrictedFields)
  const meta = (entry.default as unknown as Record<symbol, unknown>)[Symbol.for('plugin-meta')]
  t.strictSame(meta, { name: 'fastify-restricted-fields', fastify: '5.x' })
  t.equal((entry.default as unknown as Record<symbol, unknown>)[Symbol.for('skip-override')], true)
})

test('the error constructors are exported with their codes', async (t) => {
  t.strictSame(Object.keys(entry).filter((name) => name.endsWith('Error')).sort().map((name) => {
    const error = new (entry as unknown as Record<string, new (...args: unknown[]) => { code: string, statusCode: number }>)[name]('a', 'b', 1)
    return [name, error.code, error.statusCode]
  }), [
    ['DocumentLeakError', 'FST_RESTRICTED_FIELDS_DOCUMENT_LEAK', 500],
    ['DocumentNotMadeError', 'FST_RESTRICTED_FIELDS_DOCUMENT_NOT_MADE', 500],
    ['HiddenFieldsUnknownError', 'FST_RESTRICTED_FIELDS_HIDDEN_FIELDS_UNKNOWN', 500],
    ['InvalidFieldSetError', 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET', 500],
    ['InvalidHiddenFieldsError', 'FST_RESTRICTED_FIELDS_INVALID_HIDDEN_FIELDS', 500],
    ['InvalidOptionError', 'FST_RESTRICTED_FIELDS_INVALID_OPTION', 500],
    ['InvalidParameterError', 'FST_RESTRICTED_FIELDS_INVALID_PARAMETER', 400],
    ['InvalidResultsKeyError', 'FST_RESTRICTED_FIELDS_INVALID_RESULTS_KEY', 500],
    ['InvalidSourceError', 'FST_RESTRICTED_FIELDS_INVALID_SOURCE', 500],
    ['LoadFailedError', 'FST_RESTRICTED_FIELDS_LOAD_FAILED', 500],
    ['NoDeclaredFieldsError', 'FST_RESTRICTED_FIELDS_NO_DECLARED_FIELDS', 500],
    ['PathTooDeepError', 'FST_RESTRICTED_FIELDS_PATH_TOO_DEEP', 400],
    ['SelectionNotReadError', 'FST_RESTRICTED_FIELDS_SELECTION_NOT_READ', 500],
    ['TooManyFieldsError', 'FST_RESTRICTED_FIELDS_TOO_MANY_FIELDS', 400],
    ['UnaddressableFieldError', 'FST_RESTRICTED_FIELDS_UNADDRESSABLE_FIELD', 500],
    ['UnknownFieldError', 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', 400],
    ['UnknownFieldSetError', 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD_SET', 400],
    ['UnreadableSchemaError', 'FST_RESTRICTED_FIELDS_UNREADABLE_SCHEMA', 500],
    ['UnresolvedReferenceError', 'FST_RESTRICTED_FIELDS_UNRESOLVED_REFERENCE', 500],
    ['UnsupportedSchemaError', 'FST_RESTRICTED_FIELDS_UNSUPPORTED_SCHEMA', 500]
  ])
})

test('what require() returns is the plugin, with every other export on it', async (t) => {
  // test/package.test.ts checks require() itself on the installed package.
  const namespace = entry as unknown as Record<string, unknown>
  const commonJs = namespace['module.exports'] as Record<string, unknown>
  t.equal(commonJs, entry.default)
  t.strictSame(Object.keys(namespace).filter((name) => name !== 'module.exports' && commonJs[name] !== namespace[name]), [])
})
