import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { publicAddressesOnly, systemResolver, type AddressPolicy } from '../net'
import { webhookSecrets } from './integrations.infrastructure'
import { endpointUrlCheck } from './endpoint-url-check'
import { webhookSender } from './webhook-sender'

const loopbackAllowed: AddressPolicy = { allow: () => true, resolve: systemResolver }
const hits: Array<{ path: string; body: string; headers: Record<string, string> }> = []

let server: Server
let base = ''

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      hits.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString(), headers: req.headers as Record<string, string> })
      if (req.url === '/ok') return res.end('ok')
      if (req.url === '/silent') return // never answers
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'text/plain' })
        // 10 MB, written as fast as the socket takes it: the sender reads none of it.
        const chunk = Buffer.alloc(1024 * 1024, 120)
        let sent = 0
        const pump = () => {
          while (sent < 10 && res.write(chunk)) sent++
          if (sent < 10) res.once('drain', pump)
          else res.end()
        }
        res.on('error', () => undefined)
        return pump()
      }
      if (req.url === '/to-private') return res.writeHead(307, { location: `${base}/ok` }).end()
      if (req.url === '/found') return res.writeHead(302, { location: `${base}/ok` }).end()
      res.writeHead(404).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const secret = webhookSecrets.webhookSecret()
const message = (path: string) => ({ url: `${base}${path}`, secret, eventId: 'msg_test', timestamp: new Date(), body: '{"type":"webhook.test"}' })
const sender = (redirectPolicy: AddressPolicy = publicAddressesOnly, timeoutMs = 2_000) => webhookSender({ timeoutMs, policy: loopbackAllowed, redirectPolicy, allowInsecure: true })

describe('the webhook sender', () => {
  it('signs as Standard Webhooks: the reference verifier accepts the message', async () => {
    expect(await sender().send(message('/ok'))).toEqual({ statusCode: 200, error: null })
    const hit = hits.findLast((h) => h.path === '/ok')!
    expect(new Webhook(secret).verify(hit.body, hit.headers)).toEqual({ type: 'webhook.test' })
    expect(hit.headers['webhook-id']).toBe('msg_test')
  })

  it('gives up on a receiver that never answers at the deadline', async () => {
    const started = Date.now()
    const result = await sender(publicAddressesOnly, 500).send(message('/silent'))
    expect(result.statusCode).toBeNull()
    expect(result.error).toMatch(/time limit/)
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('reads none of a 10 MB answer', async () => {
    const started = Date.now()
    expect(await sender().send(message('/huge'))).toEqual({ statusCode: 200, error: null })
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('follows a 307 only to an address the redirect policy allows, and no 302', async () => {
    const before = hits.filter((h) => h.path === '/ok').length
    const blocked = await sender().send(message('/to-private'))
    expect(blocked).toEqual({ statusCode: null, error: 'the address is not a public one' })
    expect(hits.filter((h) => h.path === '/ok')).toHaveLength(before)
    expect(await sender(loopbackAllowed).send(message('/to-private'))).toEqual({ statusCode: 200, error: null })
    expect(await sender(loopbackAllowed).send(message('/found'))).toEqual({ statusCode: 302, error: null })
  })

  it('refuses the endpoint itself on a private address under the production policy', async () => {
    const production = webhookSender({ timeoutMs: 2_000, policy: publicAddressesOnly, redirectPolicy: publicAddressesOnly, allowInsecure: false })
    expect((await production.send(message('/ok'))).error).toBe('the address is not a public one')
  })
})

describe('the endpoint URL check', () => {
  const check = endpointUrlCheck({ policy: publicAddressesOnly, allowInsecure: false })
  it.each([
    ['http://example.com/hook', 'must be an https URL'],
    ['https://127.0.0.1/hook', 'may not reach a private, loopback or link-local address'],
    ['https://[::1]/hook', 'may not reach a private, loopback or link-local address'],
    ['https://169.254.169.254/latest', 'may not reach a private, loopback or link-local address'],
    ['https://10.1.2.3/', 'may not reach a private, loopback or link-local address'],
    ['https://localhost/hook', 'may not reach a private, loopback or link-local address'],
    ['https://user:pass@example.com/', 'may not carry credentials'],
    ['not a url', 'must be an absolute URL'],
    ['https://93.184.216.34/hook', null],
  ])('%s: %s', async (url, problem) => {
    expect(await check.problem(url)).toBe(problem)
  })

  it('lets http and loopback through when insecure endpoints are allowed', async () => {
    expect(await endpointUrlCheck({ policy: loopbackAllowed, allowInsecure: true }).problem('http://127.0.0.1:8080/hook')).toBeNull()
  })
})
