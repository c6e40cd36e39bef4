/**
 * Gives each schema that a `$ref` points into (a property of a component,
 * `#/components/schemas/User/properties/ssn`; a place in a response or a
 * schema's own `#/properties/ssn`) a component of its own, under a name that
 * says only where it came from (`UserPart`), and points the `$ref` there.
 *
 * A pointer's segments say what properties are called: left as written in a
 * caller's document, one into a field hidden from the caller would name it,
 * however visible the field that refers to it; and the component it points
 * into, whose twin leaves that field out, would be dropped from under it. A
 * component of its own is relaxed like any other, with the hidden paths of
 * each place that refers to it, and names nothing but its container.
 */
import { isRecord, pointerNames, valueAtPointer } from '../../json.js'
import { walkSchema } from '../../schema/walk.js'
import type { Components } from '../components.js'
import { restrictedResponses, schemaHolders } from '../operations.js'
import type { Found } from '../operations.js'
import type { Json, Version } from '../types.js'

/** What a local `$ref` names inside `root`, read as written or percent-decoded (a URI fragment may be): undefined for nothing. */
function resolved (root: unknown, ref: string): unknown {
  const found = valueAtPointer(root, ref.slice(1))
  if (found !== undefined) return found
  try {
    return valueAtPointer(root, decodeURIComponent(ref.slice(1)))
  } catch {
    return undefined
  }
}

/** Lifts the schemas pointed into, for one document: each target gets one component, whoever points to it. */
class InnerReferences {
  readonly #document: Json
  readonly #components: Components
  /** The component of each target, by the target itself. */
  readonly #lifted = new Map<unknown, string>()
  /** Components made here, whose own `$ref`s are read in their turn. */
  readonly #made: Json[] = []

  constructor (document: Json, components: Components) {
    this.#document = document
    this.#components = components
  }

  /**
   * Points every `$ref` held in `root` (and every `#/` value of a
   * discriminator's mapping) that goes inside a schema at a component of
   * its own. `owner` names the component that `root` is, if it is one; a
   * pointer the document does not resolve is resolved against `root`, as a
   * validator of that schema does.
   */
  lift (root: unknown, owner: string | null, resolvesAgainstRoot = true): void {
    walkSchema(root, ({ schema }) => {
      if (typeof schema.$ref === 'string') schema.$ref = this.#pointed(schema.$ref, root, owner, resolvesAgainstRoot)
      const mapping = isRecord(schema.discriminator) ? schema.discriminator.mapping : undefined
      if (!isRecord(mapping)) return
      for (const [tag, ref] of Object.entries(mapping)) {
        if (typeof ref === 'string') mapping[tag] = this.#pointed(ref, root, owner, resolvesAgainstRoot)
      }
    })
  }

  /** The components made here, each read once (what they point into may make more). */
  liftMade (): void {
    for (let index = 0; index < this.#made.length; index++) this.lift(this.#made[index], null, false)
  }

  /** A `$ref` as the caller's document writes it: to a component, as written; inside a schema, to that place's own component. */
  #pointed (ref: string, root: unknown, owner: string | null, resolvesAgainstRoot: boolean): string {
    if (!ref.startsWith('#/') || this.#components.nameOf(ref) !== null) return ref
    const names = pointerNames(ref.slice(1))
    const container = names[0] === 'components' && names[1] === 'schemas' ? names[2] : names[0] === 'definitions' ? names[1] : undefined
    // A pointer to a component that is no object (`true`) has nothing inside to name.
    if (container !== undefined && names.length <= (names[0] === 'definitions' ? 2 : 3)) return ref
    let target = resolved(this.#document, ref)
    let base = container ?? owner ?? 'Response'
    if (target === undefined && resolvesAgainstRoot) {
      target = resolved(root, ref)
      base = owner ?? 'Response'
    }
    if (!isRecord(target) && typeof target !== 'boolean') return ref
    let lifted = this.#lifted.get(target)
    if (lifted === undefined) {
      // The schema itself, shared by its place and its component: a `$ref` inside it is rewritten once for both.
      const schema: Json = target === true ? {} : target === false ? { not: {} } : target as Json
      lifted = this.#components.add(`${base}Part`, schema)
      this.#lifted.set(target, lifted)
      this.#made.push(schema)
    }
    return lifted
  }
}

/**
 * Points the `$ref`s of the components and of the found operations'
 * restricted responses that go inside a schema at components of their own;
 * in place. The schemas pointed into stay where they are, for what else
 * refers to them.
 */
export function liftInnerReferences (document: Json, components: Components, version: Version, found: readonly Found[]): void {
  const references = new InnerReferences(document, components)
  for (const name of Object.keys(components.schemas)) references.lift(components.schemas[name], name)
  for (const { operation, route } of found) {
    for (const { response } of restrictedResponses(operation, route, version)) {
      for (const holder of schemaHolders(response, version)) references.lift(holder.schema, null)
    }
  }
  references.liftMade()
}
