import { fileURLToPath } from 'node:url'
import { test } from 'tap'
import ts from 'typescript'

/** Compiles one file of test/types/cost/ and returns its diagnostics and the checker's instantiation count. */
function compile (file: string): { diagnostics: string[], instantiations: number } {
  const program = ts.createProgram([fileURLToPath(new URL(`types/cost/${file}`, import.meta.url))], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: []
  })
  const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  // The count `tsc --extendedDiagnostics` prints, read from the checker, which has it but does not declare it.
  const checker = program.getTypeChecker() as ts.TypeChecker & { getInstantiationCount: () => number }
  return { diagnostics, instantiations: checker.getInstantiationCount() }
}

test('narrowing a 72-field, 6-level record by 20 paths stays within 20k type instantiations a selection, with no depth error', async (t) => {
  const base = compile('base.ts')
  const one = compile('calls1.ts')
  const ten = compile('calls10.ts')
  t.strictSame([base.diagnostics, one.diagnostics, ten.diagnostics], [[], [], []])
  const first = one.instantiations - base.instantiations
  const next = (ten.instantiations - one.instantiations) / 9
  t.ok(first > 0 && first <= 20_000, `the first selection costs ${first} instantiations`)
  t.ok(next > 0 && next <= 20_000, `each further selection costs ${Math.round(next)}`)
})

test('a client call selecting 20 paths of a 72-field, 6-level record stays within 20k type instantiations, with no depth error', async (t) => {
  const base = compile('client0.ts')
  const one = compile('client1.ts')
  const ten = compile('client10.ts')
  t.strictSame([base.diagnostics, one.diagnostics, ten.diagnostics], [[], [], []])
  const first = one.instantiations - base.instantiations
  const next = (ten.instantiations - one.instantiations) / 9
  t.ok(first > 0 && first <= 20_000, `the first call costs ${first} instantiations`)
  t.ok(next > 0 && next <= 20_000, `each further call costs ${Math.round(next)}`)
})
