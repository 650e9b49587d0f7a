import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ReceivedWebhook = { headers: IncomingHttpHeaders; body: string; at: number; path: string }

/**
 * A local HTTP server standing in for an integrator: records every request and answers with
 * `respond` (200 by default), which a test may change between deliveries.
 */
export async function webhookReceiver(respond: (res: ServerResponse, received: ReceivedWebhook) => void = (res) => res.end('ok')) {
  const received: ReceivedWebhook[] = []
  let answer = respond
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const hit = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), path: req.url ?? '/' }
      received.push(hit)
      answer(res, hit)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    received,
    answerWith(next: typeof respond) {
      answer = next
    },
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
