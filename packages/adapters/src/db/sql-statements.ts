/**
 * The statements of a SQL file, one string each without its `;`, for drivers that take one
 * statement per query (PGlite). Semicolons inside quotes, quoted identifiers and dollar-quoted
 * bodies (`$fn$ ... $fn$`) do not split; comments are dropped (a block comment becomes a space).
 */
export function sqlStatements(text: string): string[] {
  const statements: string[] = []
  let current = ''
  let i = 0
  while (i < text.length) {
    const skipTo = commentEnd(text, i)
    if (skipTo !== undefined) {
      if (text.startsWith('/*', i)) current += ' '
      i = skipTo
      continue
    }
    const quotedTo = quoteEnd(text, i)
    if (quotedTo !== undefined) {
      current += text.slice(i, quotedTo)
      i = quotedTo
      continue
    }
    if (text[i] === ';') {
      statements.push(current)
      current = ''
    } else {
      current += text[i]
    }
    i++
  }
  statements.push(current)
  return statements.map((s) => s.trim()).filter((s) => s !== '')
}

/** Where a comment starting at `i` ends (a line comment keeps its newline), if one starts there. */
function commentEnd(text: string, i: number): number | undefined {
  if (text.startsWith('--', i)) {
    const end = text.indexOf('\n', i)
    return end === -1 ? text.length : end
  }
  if (text.startsWith('/*', i)) {
    const end = text.indexOf('*/', i + 2)
    if (end === -1) throw new Error('unterminated block comment')
    return end + 2
  }
  return undefined
}

/** Where a quoted run starting at `i` ends ('text', "identifier" or $tag$body$tag$), if one starts there. */
function quoteEnd(text: string, i: number): number | undefined {
  const ch = text[i]!
  if (ch === "'" || ch === '"') {
    let end = i + 1
    for (;;) {
      end = text.indexOf(ch, end)
      if (end === -1) throw new Error(`unterminated ${ch} quote`)
      // A doubled quote is one quote character inside the run.
      if (text[end + 1] !== ch) return end + 1
      end += 2
    }
  }
  if (ch !== '$' || /[\w$]/.test(text[i - 1] ?? '')) return undefined
  const tag = /^\$(?:[A-Za-z_]\w*)?\$/.exec(text.slice(i, i + 64))?.[0]
  if (!tag) return undefined
  const end = text.indexOf(tag, i + tag.length)
  if (end === -1) throw new Error(`unterminated ${tag} quote`)
  return end + tag.length
}
