/**
 * How a restricted reply is serialized, and everything a route keeps between
 * requests to do it fast. The choice, per reply: the compiled serializer of
 * the selection's pruned schema when the cache has (or admits) one; else the
 * writer, and the copy where the writer gives up. A Standard Schema route's
 * payload is validated through its own schema first. A status without fields
 * only loses the hidden paths.
 */
import type { FastifyReply } from 'fastify'
import { AdmissionCache } from './cache.js'
import { COMPILE_SHARE, MAX_COMPILE_COST, compileBudget, compileCost, keptBytes, rationUnits, reachedSchemas } from './compile.js'
import { compileWithFastJsonStringify, defaultCompilerOf, variantValidatorMaker } from './fastify-compiler.js'
import { VariantTester, taggedRecordsSerializer } from './variant-chooser.js'
import { copyProjection } from './copy.js'
import type { VariantChooser } from './copy.js'
import type { PathTrie } from './hidden-paths.js'
import type { DeclaredResponse, FieldTree, JsonSchema, Variants } from './schema/tree.js'
import { untaggedLevels, variantTag } from './schema/variant-tests.js'
import type { VariantTag } from './schema/variant-tests.js'
import { projectTree, wholeProjection } from './projection.js'
import type { KeyedProjection, Projection } from './projection.js'
import { pruneSchema, pruneSharedVariants } from './prune.js'
import { UNDECLARED_STATUS } from './route.js'
import type { RouteSpec, StatusSpec } from './route.js'
import type { Selection } from './selection.js'
import { stripRecordsText, strippingSerializer, visibleTree } from './visibility.js'
import type { Visibility, Visible } from './visibility.js'
import { ProjectionWriter, WriterGaveUp, givesUpAtOnce, writerRoute } from './write.js'
import type { WriterRoute } from './write.js'
import type { Serializer } from './json.js'

/**
 * How a route's schemas are compiled: the shared schemas its `$ref`s may reach, and whether the route
 * has a serializer compiler of its own.
 */
export interface RouteCompiling {
  readonly shared: Readonly<Record<string, JsonSchema>>
  readonly ownCompiler: boolean
}

/**
 * Compiles a schema for a status; null when the compiler refuses it. With
 * Fastify's default compiler, fast-json-stringify gets the shared schemas
 * the schema reaches, and not the others (lib/compile.ts); should it
 * refuse them (a `$ref` to an id nested in a shared schema), Fastify's compiler is asked.
 */
function compileOrNull (
  reply: FastifyReply, status: StatusSpec, schema: JsonSchema, compiling: RouteCompiling, reached = reachedSchemas(schema, compiling.shared)
): Serializer | null {
  try {
    // A Standard Schema route's compiler takes its own kind of schema, not JSON Schema: the app's fast-json-stringify does.
    if (status.standard !== null) return compileWithFastJsonStringify(reply.server, schema)
    const compileDefault = compiling.ownCompiler ? null : defaultCompilerOf(reply.server)
    if (compileDefault !== null) {
      try {
        return compileDefault(schema, reached)
      } catch {}
    }
    return reply.compileSerializationSchema(schema, status.key) as Serializer
  } catch (error) {
    // A custom serializer compiler may refuse a pruned schema; the plugin then writes or copies instead.
    reply.log.error({ err: error }, 'fastify-restricted-fields: could not compile a pruned response schema')
    return null
  }
}

/**
 * Where a status's variant tester is kept once found: one for the GET route
 * and the HEAD route Fastify declares from its options, so that their tests
 * are compiled once.
 */
interface TesterSlot { tester: VariantTester | null }

/** The serializers of one restricted status, and everything they keep between requests. */
class StatusSerializers {
  readonly #status: StatusSpec
  /** Compiled serializers by selection key; null records a selection the compiler refused. */
  readonly #cache: AdmissionCache<Serializer | null>
  /**
   * By selection, its compiled serializer once known, and the cache's count
   * of evictions then: a remembered selection needs no other lookup while
   * nothing was evicted, and holds no serializer the cache let go after.
   */
  readonly #bySelection = new WeakMap<Selection, { serializer: Serializer | null, evictions: number }>()
  /**
   * The status's one writer, made once rather than per reply. What it
   * compiles is compiled for the reply it is writing (`#writingFor`): a write
   * runs to its end without yielding.
   */
  readonly #writer: ProjectionWriter
  #writingFor: FastifyReply | null = null
  /** Tells a record's variant for the copy, as the writer tells it. */
  readonly #choose: VariantChooser = (variants, record) => this.#writer.choose(variants, record)
  /** The schema of every declared field without defaults, for copies; compiled on first use (null: refused). */
  #copy: Serializer | null | undefined = undefined
  /** The writer of JSON a Standard Schema route's own serializer wrote, for the rare payload only it accepts. */
  readonly #encoded: WriterRoute
  /** The tag of the records' variants, when they are tagged. */
  readonly #tag: VariantTag | null
  /** The reasons the writer gave up for, each logged once. */
  readonly #gaveUp = new Set<WriterGaveUp>()

  /** What the status's compiles are handed. */
  readonly #compiling: RouteCompiling

  readonly #cacheBytes: number

  /** Holds the tester that runs the status's variant tests as Fastify's default compiler does, found on first use (null: another one). */
  readonly #tests: TesterSlot

  constructor (
    status: StatusSpec, { cacheSize, cacheBytes }: { cacheSize: number, cacheBytes: number }, compiling: RouteCompiling, tests: TesterSlot
  ) {
    this.#status = status
    this.#tests = tests
    this.#compiling = compiling
    this.#cacheBytes = cacheBytes
    this.#cache = new AdmissionCache<Serializer | null>(cacheSize, { share: COMPILE_SHARE, maxWeight: cacheBytes })
    const variants = status.declared?.tree.variants ?? null
    this.#tag = variants === null ? null : variantTag(variants)
    this.#writer = new ProjectionWriter(
      writerRoute(status.shape, status.declared),
      (schema) => compileBudget.timed(() => compileOrNull(this.#writingFor!, status, schema, compiling)),
      (variants, instead) => this.#testerFor(this.#writingFor!.server)?.chooser(variants.tests, instead) ?? null
    )
    this.#encoded = writerRoute(status.shape, null)
  }

  /**
   * The tester of the status's variants where its serializer is Fastify's
   * default compiler; null elsewhere, and while that cannot be seen yet.
   */
  #testerFor (server: object): VariantTester | null {
    const status = this.#status
    const slot = this.#tests
    if (slot.tester !== null || this.#compiling.ownCompiler || status.standard !== null) return slot.tester
    const validator = variantValidatorMaker(server)
    if (validator !== null) slot.tester = new VariantTester(validator, this.#compiling.shared, status.declared!.localDefinitions)
    return slot.tester
  }

  /**
   * Compiles now, as the route is made ready, the variant tests of the
   * status's untagged `levels` that could cost more than the bound of a
   * compile on the request path (lib/compile.ts) on the route's first written
   * reply; cheaper ones wait for their first use.
   */
  prepare (server: object, levels: readonly Variants[]): void {
    const tester = this.#testerFor(server)
    if (tester === null) return
    for (const variants of levels) {
      if (tester.testsCost(variants.tests) > MAX_COMPILE_COST) tester.prepare(variants.tests)
    }
  }

  /**
   * The serializer of a reply restricted to `projection` (canonical `key`).
   * `selection` is the request's own selection when the projection is its
   * own, so that its compiled serializer is kept with it; `visible` is what
   * the request sees of the status when a rule hides some fields, and
   * `hidden` the paths it hides.
   */
  restricted (
    reply: FastifyReply, projection: Projection, key: string, selection: Selection | null, visible: Visible | null, hidden: PathTrie | null
  ): Serializer {
    // A leaf with hidden paths inside its value is never compiled: the compiled serializer would write it whole.
    const restricted = (visible?.strips === true ? undefined : this.#compiled(reply, key, projection, selection)) ??
      this.#writing(reply, projection, visible?.tree ?? this.#status.tree, visible?.strips === true ? hidden : null)
    return this.#status.standard === null ? restricted : this.#validating(reply, restricted, projection)
  }

  /** The compiled serializer of a projection, compiling it when the cache admits it; null or undefined when there is none. */
  #compiled (reply: FastifyReply, key: string, projection: Projection, selection: Selection | null): Serializer | null | undefined {
    const status = this.#status
    const known = selection === null ? undefined : this.#bySelection.get(selection)
    if (known !== undefined && known.evictions === this.#cache.evictions) {
      this.#cache.countLookup()
      return known.serializer
    }
    let serializer = this.#cache.get(key)
    // A field set alone is one of the few the server named: it is compiled on first use, within the compilation budget.
    // While the process has spent its compile time, the selection is written, and may be admitted on a later sighting.
    const admitted = (): boolean => selection?.named === true ? this.#cache.admitOnFirstUse() : this.#cache.admit(key)
    if (serializer === undefined && status.declared !== null && compileBudget.allows() && admitted()) {
      // A refusal is cached too (as null), so it is not tried again.
      const compiled = compileBudget.timed(() => this.#compileSelection(reply, status.declared!, projection))
      serializer = compiled?.serializer ?? null
      this.#cache.set(key, serializer, compiled?.bytes)
    }
    if (serializer !== undefined && selection !== null) this.#bySelection.set(selection, { serializer, evictions: this.#cache.evictions })
    return serializer
  }

  /**
   * The compiled serializer of a selection; null when the compiler refuses
   * it, or when it would cost too much to compile while a request waits
   * (lib/compile.ts): such a selection is written. Where the records are
   * tagged variants that all keep the same fields, the records are written
   * by the schema they share, once their tags are checked.
   */
  #compileSelection (
    reply: FastifyReply, declared: DeclaredResponse, projection: Projection
  ): { serializer: Serializer | null, bytes: number } | null {
    const status = this.#status
    const schema = pruneSchema(declared, projection, { defaults: true, variants: 'choose' })
    const reached = reachedSchemas(schema, this.#compiling.shared)
    const cost = compileCost(schema, reached)
    // Written instead: too costly to compile while a request waits, or too large for the cache's bytes alone.
    const bytes = keptBytes(cost)
    if (cost > MAX_COMPILE_COST || bytes > this.#cacheBytes) return null
    // The ration is spent in proportion to the cost: one unit was spent on admission.
    this.#cache.spend(rationUnits(cost) - 1)
    const chosen = compileOrNull(reply, status, schema, this.#compiling, reached)
    const tag = this.#tag
    if (chosen === null || tag === null) return { serializer: chosen, bytes }
    const sharedSchema = pruneSharedVariants(declared, projection, tag)
    const shared = sharedSchema === null ? null : compileOrNull(reply, status, sharedSchema, this.#compiling)
    return { serializer: shared === null ? chosen : taggedRecordsSerializer(declared, tag, shared, chosen), bytes }
  }

  /**
   * The restricted serializer of a reply whose selection has no compiled
   * serializer: write, or copy where the writer gives up. `strips` is set
   * when leaves of `tree` have hidden paths removed from their values.
   */
  #writing (reply: FastifyReply, projection: Projection, tree: FieldTree, strips: PathTrie | null): Serializer {
    const status = this.#status
    const writer = this.#writer
    return (payload) => {
      // Records with a toJSON() are copied: known before anything is written, the writer is not started.
      const copied = status.declared === null ? null : givesUpAtOnce(payload, status.shape)
      // Restored after, should a toJSON() ever serialize another reply of the status while this one is written.
      const outer = this.#writingFor
      this.#writingFor = reply
      try {
        if (copied === null) {
          try {
            return writer.write(payload, projection, tree)
          } catch (error) {
            if (!(error instanceof WriterGaveUp)) throw error
            this.#gaveUpOn(reply, error)
          }
        } else {
          this.#gaveUpOn(reply, copied)
        }
        if (this.#copy === undefined) {
          const copySchema = pruneSchema(status.declared!, wholeProjection(status.tree), { defaults: false, variants: 'copy' })
          this.#copy = compileBudget.timed(() => compileOrNull(reply, status, copySchema, this.#compiling))
        }
        // The copy schema, closed at every level, writes the declared fields of the status's own tree and nothing else:
        // values kept whole may be handed to it as they are. Not to JSON.stringify, nor where a rule hides fields.
        const handOver = this.#copy !== null && tree === status.tree
        const copy = copyProjection(payload, tree, projection, status.shape, this.#choose, handOver)
        const json = (this.#copy ?? JSON.stringify)(copy)
        // The copy schema's leaves write their own defaults and consts, which may hold a hidden path.
        return strips === null ? json : stripRecordsText(json, strips, status.shape)
      } finally {
        // The reply is not kept past its write.
        this.#writingFor = outer
      }
    }
  }

  /** Logs, once per reason and status, why the writer leaves payloads to the copy. */
  #gaveUpOn (reply: FastifyReply, reason: WriterGaveUp): void {
    if (this.#gaveUp.has(reason)) return
    this.#gaveUp.add(reason)
    reply.log.debug({ reason: reason.reason }, `fastify-restricted-fields: the route copies the kept fields where it cannot write them: ${reason.reason}`)
  }

  /**
   * Wraps a restricted serializer of a Standard Schema route: the payload goes
   * through the schema's own validation first, and what it outputs is
   * restricted. A payload it rejects goes to the route's own serializer, which
   * rejects it as it would without restriction.
   */
  #validating (reply: FastifyReply, restricted: Serializer, projection: Projection): Serializer {
    const status = this.#status
    const standard = status.standard!
    const encoded = this.#encoded
    return function validateThenRestrict (payload) {
      const result = standard['~standard'].validate(payload)
      if (!(result instanceof Promise) && result.issues === undefined) return restricted(result.value)
      if (result instanceof Promise) result.catch(() => {})
      const own = reply.compileSerializationSchema(standard as unknown as Record<string, unknown>, status.key) as Serializer
      // Reached only when the route's serializer accepts what validation did not (a codec, say):
      // its JSON is restricted as it stands, with nothing converted again.
      return new ProjectionWriter(encoded, () => null).write(JSON.parse(own(payload)), projection)
    }
  }
}

/**
 * A route's serializers: the one place its caches live (compiled serializers,
 * writer state, the copy schema, per-selection memos), next to its immutable
 * RouteSpec. `serializerFor` chooses a reply's serializer. A status's
 * serializers are made on its first restricted reply (or when the route is
 * made ready, where it has variant tests to compile then): most routes of a
 * large app are never asked to restrict.
 */
export class RouteSerializers {
  readonly #spec: RouteSpec
  readonly #compiling: RouteCompiling
  readonly #statuses = new Map<StatusSpec, StatusSerializers>()
  readonly #testers: Map<StatusSpec, TesterSlot>
  /** Projections of selections made for a status whose tree is not the route's, by status and selection. */
  readonly #projections = new Map<StatusSpec, WeakMap<Selection, KeyedProjection>>()
  /** Each status's visible tree under a visibility, worked out on first use. */
  readonly #visibleTrees = new WeakMap<Visibility<unknown>, Map<StatusSpec, Visible>>()

  /**
   * `like`: the serializers of a route with the same statuses and compiling (the GET route whose HEAD
   * route Fastify declares from its options), whose variant testers these share.
   */
  constructor (spec: RouteSpec, compiling: RouteCompiling, like: RouteSerializers | null = null) {
    this.#spec = spec
    this.#compiling = compiling
    this.#testers = like === null ? new Map() : like.#testers
  }

  #serializers (status: StatusSpec): StatusSerializers {
    let serializers = this.#statuses.get(status)
    if (serializers === undefined) {
      let tests = this.#testers.get(status)
      if (tests === undefined) this.#testers.set(status, tests = { tester: null })
      serializers = new StatusSerializers(status, this.#spec.options, this.#compiling, tests)
      this.#statuses.set(status, serializers)
    }
    return serializers
  }

  /** Compiles, as the route is made ready on `server`, what its first written reply would otherwise compile past the cost bound. */
  prepare (server: object): void {
    for (const status of this.#spec.statuses) {
      const levels = status.declared === null ? [] : untaggedLevels(status.declared.tree)
      if (levels.length > 0) this.#serializers(status).prepare(server, levels)
    }
  }

  /**
   * The serializer of a reply of `status` for a request with `selection`
   * (null: no parameters and no default) that may see what `visibility` leaves
   * (null: everything); null when the route's own serializer sends it as is.
   * The payload itself, which later hooks see, is never changed.
   */
  serializerFor (
    status: StatusSpec | typeof UNDECLARED_STATUS, selection: Selection | null, visibility: Visibility<unknown> | null, reply: FastifyReply
  ): Serializer | null {
    if (status === UNDECLARED_STATUS) {
      // No fields to choose from: what the rule hides is removed wherever it appears.
      return visibility === null ? null : strippingSerializer(visibility.hidden!, this.#spec.primary.shape)
    }
    if (selection === null) return null
    const visible = visibility === null ? null : this.#visibleTree(visibility, status)
    const serializers = this.#serializers(status)
    const hidden = visibility?.hidden ?? null
    if (status.tree === this.#spec.tree) {
      return serializers.restricted(reply, selection.projection, selection.key, selection, visible, hidden)
    }
    const { projection, key } = this.#projection(status, selection, visible)
    return serializers.restricted(reply, projection, key, null, visible, hidden)
  }

  /** The projection of a selection for a status whose tree is not the route's: made from the selection's paths, once. */
  #projection (status: StatusSpec, selection: Selection, visible: Visible | null): KeyedProjection {
    let known = this.#projections.get(status)
    if (known === undefined) this.#projections.set(status, known = new WeakMap())
    let projected = known.get(selection)
    if (projected === undefined) {
      projected = projectTree(visible?.tree ?? status.tree, selection.tries.only, selection.tries.defer)
      known.set(selection, projected)
    }
    return projected
  }

  /** A status's visible tree under a visibility, worked out once: the visibility's own when the status has the route's tree. */
  #visibleTree (visibility: Visibility<unknown>, status: StatusSpec): Visible {
    if (status.tree === this.#spec.tree) return visibility
    let trees = this.#visibleTrees.get(visibility)
    if (trees === undefined) this.#visibleTrees.set(visibility, trees = new Map())
    let tree = trees.get(status)
    if (tree === undefined) {
      tree = visibleTree(status.tree, visibility.hidden!)
      trees.set(status, tree)
    }
    return tree
  }
}
