/** Schemas and records shared by the tests. */
import type { FieldTree, JsonSchema } from '../lib/schema/tree.js'
import type { RefContext } from '../lib/schema/references.js'
import { declaredResponse } from '../lib/schema/reader.js'
import { selectionRules } from '../lib/selection.js'
import type { SelectionRules } from '../lib/selection.js'

export const profileSchema = {
  type: 'object',
  nullable: true,
  properties: { city: { type: 'string' }, phone: { type: 'string' } }
}

export const tagSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, label: { type: 'string' } }
}

export const userSchema = {
  type: 'object',
  required: ['id', 'name', 'email'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: ['string', 'null'] },
    role: { type: 'string', default: 'member' },
    profile: profileSchema,
    tags: { type: 'array', items: tagSchema }
  }
}

export const records = [
  { id: 1, name: 'Ada', email: 'ada@example.com', password: 'hunter2', profile: { city: 'London', phone: '1', secret: 's' }, tags: [{ id: 1, label: 'math', hidden: true }] },
  { id: 2, name: 'Alan', email: null, role: 'admin', profile: null, tags: [] }
]

export function context (shared: Record<string, JsonSchema> = {}, root: JsonSchema = {}): RefContext {
  return {
    root,
    shared,
    unresolved: (ref) => { throw new Error(`unresolved ${ref}`) },
    unreadable: (pointer, keyword, reason) => { throw new Error(`unreadable ${pointer} (${keyword}): ${reason}`) }
  }
}

/** The declared fields of an object schema, with default limits. */
export function treeOf (schema: JsonSchema, shared: Record<string, JsonSchema> = {}, maxDepth = 8): FieldTree {
  const declared = declaredResponse(schema, 'results', maxDepth, context(shared, schema))
  if (declared === null) throw new Error('schema declares no fields')
  return declared.tree
}

/** Parsing rules with the plugin's defaults, and any overrides. */
export function rulesWith (overrides: Partial<SelectionRules> = {}): SelectionRules {
  return selectionRules({ onlyParam: 'only', deferParam: 'defer', unknownFields: 'reject', maxFields: 100, maxDepth: 8, ...overrides })
}
