import { request } from 'node:http'

export type StreamedAnswer = {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  /** Body bytes the client had written when the answer's head arrived. */
  sentBeforeAnswer: number
  elapsedMs: number
}

/**
 * Sends a large body the way an attacker would: chunk after chunk, honouring back-pressure,
 * and stops as soon as the server answers. `declareLength` sends Content-Length (the full
 * size), else the body is chunked. The answer says how much had been sent by then, which is
 * at most what the server read.
 */
export function sendStreaming(
  url: string,
  options: { method?: string; headers?: Record<string, string>; totalBytes: number; head?: Buffer; declareLength?: boolean },
): Promise<StreamedAnswer> {
  const started = performance.now()
  const filler = Buffer.alloc(64 * 1024, 0x61)
  const head = options.head ?? Buffer.alloc(0)
  return new Promise((resolve, reject) => {
    let sent = 0
    let answered = false
    const req = request(url, {
      method: options.method ?? 'POST',
      agent: false,
      headers: { ...options.headers, ...(options.declareLength ? { 'content-length': String(options.totalBytes) } : { 'transfer-encoding': 'chunked' }) },
    })
    req.on('response', (res) => {
      answered = true
      const sentBeforeAnswer = sent
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      const finish = () => {
        req.destroy()
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), sentBeforeAnswer, elapsedMs: performance.now() - started })
      }
      res.on('end', finish)
      res.on('error', finish)
    })
    // The server may close the connection while the body is still going: expected here.
    req.on('error', (error) => {
      if (!answered) reject(error)
    })
    const pump = () => {
      while (!answered && sent < options.totalBytes) {
        const piece = sent < head.length ? head.subarray(sent, sent + filler.length) : filler
        const chunk = piece.subarray(0, Math.min(piece.length, options.totalBytes - sent))
        sent += chunk.length
        if (!req.write(chunk)) {
          req.once('drain', pump)
          return
        }
      }
      if (!answered && sent >= options.totalBytes) req.end()
    }
    req.on('socket', () => pump())
  })
}
