/**
 * The table of the type-level bench in docs/typescript.md, written from the
 * committed bench/types.json: `npm run bench:types` writes both, and a test
 * checks that the page's figures are the file's.
 */

/** What one client's calls cost the checker at one count of calls. */
export interface TypeCost {
  /** Type instantiations, as `tsc --extendedDiagnostics` counts them. */
  instantiations: number
  /** The checker's time, in milliseconds. */
  checkMs: number
}

/** A run of the type-level bench. */
export interface TypesResults {
  date: string
  machine: { cpus: number, model: string, node: string, typescript: string, loadavg: number }
  /** The description's restricted GET routes, and how many calls took one of their enum query parameters. */
  description: { title: string, restrictedRoutes: number, generatedBytes: number }
  /** A file with no call, through each client: its imports and the generated types. */
  base: { restricted: TypeCost, plain: TypeCost }
  /**
   * By count of calls: the restricted client's cost and plain openapi-fetch's, the instantiations less
   * the file with no call's, the whole file's check time.
   */
  runs: Array<{ calls: number, enumParameters: number, restricted: TypeCost, plain: TypeCost }>
}

const START = '<!-- bench:types -->'
const END = '<!-- /bench:types -->'
const whole = (value: number): string => Math.round(value).toLocaleString('en-US')

/** The section: the run's settings, then per count of calls both clients' instantiations and check time, and the cost per call. */
export function typesSection (results: TypesResults): string {
  const { machine, description } = results
  return [
    `The committed run, \`bench/types.json\`, of ${results.date.slice(0, 10)}: ${description.title}'s description served by the plugin (${description.restrictedRoutes} restricted GET routes; the generated \`RestrictedRoutes\` is ${whole(description.generatedBytes / 1024)} KB), ` +
      `TypeScript ${machine.typescript}, Node ${machine.node}, ${machine.cpus} cores (${machine.model}) at a load average of ${machine.loadavg.toFixed(1)}. ` +
      'Each call selects three fields of a different route and passes its path parameters, and its first enum query parameter as a plain literal where it has one. ' +
      `Instantiations are the file's less those of the same file without a call (${whole(results.base.restricted.instantiations)} through the restricted client, ${whole(results.base.plain.instantiations)} through openapi-fetch); ` +
      `check times are the whole file's (without a call: ${whole(results.base.restricted.checkMs)} and ${whole(results.base.plain.checkMs)} ms).`,
    '',
    '| calls | of them with an enum literal | restricted client: instantiations | check (ms) | per call | openapi-fetch: instantiations | check (ms) | per call |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.runs.map((run) => `| ${run.calls} | ${run.enumParameters} | ${whole(run.restricted.instantiations)} | ${whole(run.restricted.checkMs)} | ${whole(run.restricted.instantiations / run.calls)} | ` +
      `${whole(run.plain.instantiations)} | ${whole(run.plain.checkMs)} | ${whole(run.plain.instantiations / run.calls)} |`)
  ].join('\n')
}

/** The page with its section replaced by the one `results` gives. */
export function updateTypesSection (page: string, results: TypesResults): string {
  const start = page.indexOf(START)
  const end = page.indexOf(END)
  if (start === -1 || end < start) throw new Error(`the page has no ${START} … ${END} section`)
  return `${page.slice(0, start + START.length)}\n${typesSection(results)}\n${page.slice(end)}`
}
