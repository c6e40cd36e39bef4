import Fastify from 'fastify'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import type { Test } from 'tap'
import fastifyRestrictedFields from '../lib/index.js'
import type { RestrictedFieldsOptions } from '../lib/index.js'
import { compileBudget } from '../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

/** A fresh Fastify instance with the plugin registered (and awaited), closed when the test ends. */
export async function build (t: Test, options: RestrictedFieldsOptions = {}, server: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify(server)
  await app.register(fastifyRestrictedFields, options)
  t.teardown(() => app.close())
  return app
}

/** GETs `url` and returns status and parsed body. */
export async function get (app: FastifyInstance, url: string): Promise<{ status: number, body: unknown }> {
  const response = await app.inject({ method: 'GET', url })
  return { status: response.statusCode, body: response.json() }
}

/**
 * The choices a documented parameter offers: its items' `enum`, or that of
 * the component its items refer to (`#/components/schemas/Fields-…`, one
 * list shared by `only` and `defer`).
 */
export function parameterChoices (document: any, parameter: any): unknown {
  const items = parameter?.schema?.items ?? parameter?.items
  if (typeof items?.$ref !== 'string') return items?.enum
  return items.$ref.slice(2).split('/').reduce((at: any, token: string) => at?.[token], document)?.enum
}
