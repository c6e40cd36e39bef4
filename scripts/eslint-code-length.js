/**
 * A lint rule: a line may hold at most `max` characters outside its string,
 * template and regular expression literals and the URLs of its comments.
 * `max-len`'s `ignoreStrings` lets a whole line through once it holds any
 * string, so an `import` or `export type { … } from '…'` of any length passed.
 */
const codeLength = {
  meta: {
    type: 'layout',
    schema: [{ type: 'integer', minimum: 1 }],
    messages: { long: 'This line has {{length}} characters outside strings, URLs and regular expressions; at most {{max}} are allowed' }
  },
  create (context) {
    const max = context.options[0] ?? 140
    const source = context.sourceCode
    return {
      Program () {
        const lines = source.lines
        const exempt = lines.map(() => 0)
        const spans = []
        for (const token of source.ast.tokens) {
          if (token.type === 'String' || token.type === 'Template' || token.type === 'RegularExpression') spans.push(token.loc)
        }
        for (const comment of source.getAllComments()) {
          const text = source.getText(comment)
          for (const url of text.matchAll(/[a-z]+:\/\/\S+/g)) {
            const before = text.slice(0, url.index).split('\n')
            const line = comment.loc.start.line + before.length - 1
            const column = (before.length === 1 ? comment.loc.start.column : 0) + before.at(-1).length
            spans.push({ start: { line, column }, end: { line, column: column + url[0].length } })
          }
        }
        for (const { start, end } of spans) {
          for (let line = start.line; line <= end.line; line++) {
            exempt[line - 1] += (line === end.line ? end.column : lines[line - 1].length) - (line === start.line ? start.column : 0)
          }
        }
        lines.forEach((text, index) => {
          const length = text.length - exempt[index]
          if (length > max) {
            const loc = { start: { line: index + 1, column: 0 }, end: { line: index + 1, column: text.length } }
            context.report({ loc, messageId: 'long', data: { length, max } })
          }
        })
      }
    }
  }
}

export default { rules: { 'code-length': codeLength } }
