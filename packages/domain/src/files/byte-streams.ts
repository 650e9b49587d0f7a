/** Joins chunks into one array. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)
  const out = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

export type Peeked = {
  /** At most the first `bytes` bytes. */
  head: Uint8Array
  /** The whole content again, head included; read it at most once. */
  all: AsyncIterable<Uint8Array>
  /** Lets go of a content that will not be read any further. */
  release(): Promise<void>
}

/** Reads the first `bytes` bytes without losing them, so the type can be seen before storing. */
export async function peek(content: AsyncIterable<Uint8Array>, bytes: number): Promise<Peeked> {
  const iterator = content[Symbol.asyncIterator]()
  const chunks: Uint8Array[] = []
  let seen = 0
  let finished = false
  while (seen < bytes) {
    const next = await iterator.next()
    if (next.done) {
      finished = true
      break
    }
    chunks.push(next.value)
    seen += next.value.byteLength
  }
  const start = concatBytes(chunks)
  async function* all(): AsyncGenerator<Uint8Array> {
    if (start.byteLength > 0) yield start
    while (!finished) {
      const next = await iterator.next()
      if (next.done) return
      yield next.value
    }
  }
  return {
    head: start.subarray(0, bytes),
    all: all(),
    release: async () => {
      if (!finished) await iterator.return?.()
    },
  }
}

/** Passes `content` through, counting it into `state`, until it exceeds `maxBytes`; then marks `state` and fails. */
export async function* limitBytes(
  content: AsyncIterable<Uint8Array>,
  maxBytes: number,
  state: { exceeded: boolean; seen: number },
): AsyncGenerator<Uint8Array> {
  for await (const chunk of content) {
    state.seen += chunk.byteLength
    if (state.seen > maxBytes) {
      state.exceeded = true
      throw new RangeError(`upload exceeds ${maxBytes} bytes`)
    }
    yield chunk
  }
}
