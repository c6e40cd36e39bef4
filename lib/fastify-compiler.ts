/**
 * The app's own Fastify, as the plugin compiles with it. Where a route uses
 * Fastify's default serializer compiler, the plugin builds that same compiler
 * for each compile, handed only the shared schemas the compile reaches
 * (lib/compile.ts says why). Everything it builds with comes from the Fastify
 * that made the instance: its @fastify/fast-json-stringify-compiler, the
 * fast-json-stringify that one requires, and the instance's `serializerOpts`.
 * Never from the plugin's own place: under pnpm or Yarn PnP the plugin may
 * not see the app's Fastify, or may see another one.
 *
 * Fastify keeps the instance's compiler, builder and options under internal
 * symbols, and Fastify 5.0 to 5.9 tell a custom builder
 * (`schemaController.compilersFactory.buildSerializer`) from the default by
 * the validator's builder instead (`isCustomSerializerCompiler`, fixed in
 * 5.10). So nothing is taken on trust: the symbols are the very ones of the
 * Fastify module that made the instance, the builder must be the default
 * one, source for source, and the compiler the instance hands (its public
 * `serializerCompiler`) must be one that builder made. Anything else, and
 * the route's compiler is called as Fastify calls it.
 */
import { createRequire } from 'node:module'
import { isRecord } from './json.js'
import type { JsonSchema } from './schema/tree.js'
import type { Serializer } from './json.js'

/** fast-json-stringify's build. */
type Build = (schema: JsonSchema, options?: Record<string, unknown>) => Serializer

/** A serializer compiler, as Fastify calls one. */
type SerializerCompiler = (route: { schema: JsonSchema }) => Serializer

/** @fastify/fast-json-stringify-compiler's export: makes the builder of Fastify's default serializer compiler. */
type SerializerSelector = () => (shared: Record<string, JsonSchema>, serializerOpts: unknown) => SerializerCompiler

/** What the plugin takes from one installed Fastify. */
export interface FastifyModules {
  /** Fastify's own symbols of the schema controller and of the options an instance was made with. */
  readonly kSchemaController: symbol
  readonly kOptions: symbol
  /** Fastify's default serializer builder, and its source, which a custom builder does not share. */
  readonly selector: SerializerSelector
  readonly builderSource: string
  /** The fast-json-stringify that Fastify's default compiler calls. */
  readonly build: Build
  /** Requires a package as that fast-json-stringify does (its ajv, say). */
  readonly requireBesideBuild: NodeJS.Require
}

/** The name of the compiler @fastify/fast-json-stringify-compiler's builder returns: its `responseSchemaCompiler`, bound to its options. */
const DEFAULT_COMPILER_NAME = 'bound responseSchemaCompiler'

/** Fastify's modules by the file of its symbols, once each. */
const byFile = new Map<string, FastifyModules | null>()

/** The modules of a Fastify installed with its symbols at `file`; null when its compiler is not beside it. */
function modulesAt (file: string, symbols: Record<string, symbol>): FastifyModules | null {
  let modules = byFile.get(file)
  if (modules === undefined) {
    try {
      const fromFastify = createRequire(file)
      const compilerFile = fromFastify.resolve('@fastify/fast-json-stringify-compiler')
      const selector = fromFastify(compilerFile) as SerializerSelector
      const fromCompiler = createRequire(compilerFile)
      const buildFile = fromCompiler.resolve('fast-json-stringify')
      modules = {
        kSchemaController: symbols.kSchemaController,
        kOptions: symbols.kOptions,
        selector,
        builderSource: String(selector()),
        build: fromCompiler(buildFile) as Build,
        requireBesideBuild: createRequire(buildFile)
      }
      /* c8 ignore start: a Fastify installed without its own compiler beside it */
    } catch {
      modules = null
    }
    /* c8 ignore stop */
    byFile.set(file, modules)
  }
  return modules
}

/** The modules of each instance's Fastify, found once per instance. */
const byInstance = new WeakMap<object, FastifyModules | null>()

/**
 * The modules of the Fastify that made `server`: the one loaded module of
 * Fastify's symbols whose schema-controller symbol the instance holds (a
 * symbol is its own identity: no other copy of Fastify, however installed,
 * made this instance). Null when no loaded module holds them, as in a bundle.
 */
export function fastifyModulesOf (server: object): FastifyModules | null {
  let modules = byInstance.get(server)
  if (modules === undefined) {
    modules = null
    const loaded = createRequire(import.meta.url).cache
    for (const file of Object.keys(loaded)) {
      if (!/[\\/]lib[\\/]symbols\.js$/.test(file)) continue
      const symbols = loaded[file]?.exports
      const holdsSymbols = isRecord(symbols) && typeof symbols.kSchemaController === 'symbol' && typeof symbols.kOptions === 'symbol'
      if (holdsSymbols && symbols.kSchemaController in server) {
        modules = modulesAt(file, symbols as Record<string, symbol>)
        break
      }
    }
    byInstance.set(server, modules)
  }
  return modules
}

/** The modules and `serializerOpts` of an instance seen to use Fastify's default serializer compiler; null otherwise. */
function defaultCompiling (server: object): { modules: FastifyModules, serializerOpts: Record<string, unknown> | undefined } | null {
  const modules = fastifyModulesOf(server)
  if (modules === null) return null
  const internal = server as Record<symbol, any>
  const controller = internal[modules.kSchemaController]
  const options = internal[modules.kOptions]
  const builder = typeof controller?.getSerializerBuilder === 'function' ? controller.getSerializerBuilder() : undefined
  if (typeof builder !== 'function' || String(builder) !== modules.builderSource ||
    !isRecord(options) || !(options.serializerOpts === undefined || isRecord(options.serializerOpts))) return null
  // The compiler the instance hands publicly: a parent's custom compiler, inherited, sits beside the default builder.
  const compiler = (server as { serializerCompiler?: unknown }).serializerCompiler
  if (typeof compiler !== 'function' || compiler.name !== DEFAULT_COMPILER_NAME) return null
  return { modules, serializerOpts: options.serializerOpts }
}

/**
 * Fastify's default serializer compiler of `server`, made anew for each
 * compile with only the shared schemas it reaches, as the app's Fastify
 * makes it with all of them; null unless the instance is seen to use that
 * default compiler, with options the plugin can read.
 */
export function defaultCompilerOf (server: object): ((schema: JsonSchema, reached: Record<string, JsonSchema>) => Serializer) | null {
  const compiling = defaultCompiling(server)
  if (compiling === null) return null
  const { modules, serializerOpts } = compiling
  return (schema, reached) => modules.selector()(reached, serializerOpts)({ schema })
}

/**
 * What makes fast-json-stringify's own validator of the variants it chooses
 * between (`lib/validator.js`: ajv with the options fast-json-stringify gives
 * it, `serializerOpts.ajv` among them, and its own reading of strings that
 * may be objects with a `toJSON`; shared schemas not inlined), for `server`
 * where it serializes with Fastify's default compiler; null otherwise, or
 * where that file is not found. The validator is made when asked for: an ajv
 * instance of its own is most of what a route's variant tests keep, and most
 * routes never test a variant.
 */
export function variantValidatorMaker (server: object): (() => VariantValidator) | null {
  const compiling = defaultCompiling(server)
  if (compiling === null) return null
  let Validator: new (ajvOptions: unknown) => VariantValidator
  try {
    Validator = compiling.modules.requireBesideBuild('./lib/validator.js')
    /* c8 ignore start: a fast-json-stringify without its validator where 6.x and 7.x keep it */
  } catch {
    return null
  }
  /* c8 ignore stop */
  // Each shared schema compiled once, as a function of its own, rather than written again into every test that
  // refers to it: how ajv writes its code, not what it accepts; options of the app's own come after.
  const ajv = compiling.serializerOpts?.ajv as Record<string, unknown> | undefined
  return () => new Validator({ inlineRefs: false, ...ajv })
}

/** What the plugin uses of fast-json-stringify's validator: schemas added by key, and ajv, which compiles them. */
export interface VariantValidator {
  addSchema: (schema: JsonSchema, key: string) => void
  readonly ajv: { getSchema: (key: string) => ((data: unknown) => boolean) | undefined }
}

/**
 * Compiles with the app's fast-json-stringify, for schemas no route compiler takes (a Standard Schema route's); null when it cannot be
 * found.
 */
export function compileWithFastJsonStringify (server: object, schema: JsonSchema): Serializer | null {
  const modules = fastifyModulesOf(server)
  return modules === null ? null : modules.build(schema)
}
