import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../config'
import { identityProviderFromConfig } from './index'
import { offlineIdentityProvider } from './offline-identity-provider'
import { IdentityProviderError, onfidoIdentityProvider } from './onfido-identity-provider'

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: unknown }
type Reply = (req: Seen, res: ServerResponse) => void

/** A local stand-in for the provider's API that records what it was sent. */
async function standIn(reply: Reply): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined }
      seen.push(entry)
      reply(entry, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/v3.6`, seen, server }
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** Answers like Onfido: an applicant, then a workflow run with its hosted link. */
const onfidoLike: Reply = (req, res) => {
  if (req.url === '/v3.6/applicants') return json(res, 201, { id: 'app_123', first_name: 'Ada' })
  if (req.url === '/v3.6/workflow_runs') {
    return json(res, 201, { id: 'wfr_456', status: 'awaiting_input', link: { url: 'https://eu.onfido.app/l/wfr_456' } })
  }
  json(res, 404, { error: { type: 'resource_not_found' } })
}

const applicant = { userId: 42, email: 'ada@example.com', firstname: 'Ada', lastname: 'Lovelace' }
const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

describe('Onfido-style identity provider', () => {
  it('creates an applicant, then a workflow run, and answers its id and hosted link', async () => {
    const api = await standIn(onfidoLike)
    servers.push(api.server)
    const provider = onfidoIdentityProvider({
      baseUrl: `${api.url}/`,
      token: 'api_sandbox.secret',
      workflowId: 'wf_1',
      completedRedirectUrl: 'https://app.example.com/verified',
    })

    expect(await provider.startCheck(applicant)).toEqual({ reference: 'wfr_456', redirectUrl: 'https://eu.onfido.app/l/wfr_456' })
    expect(provider.mode).toBe('live')
    expect(api.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v3.6/applicants', 'POST /v3.6/workflow_runs'])
    for (const request of api.seen) {
      expect(request.headers.authorization).toBe('Token token=api_sandbox.secret')
      expect(request.headers['content-type']).toBe('application/json')
    }
    expect(api.seen[0]!.body).toEqual({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' })
    expect(api.seen[1]!.body).toEqual({
      workflow_id: 'wf_1',
      applicant_id: 'app_123',
      customer_user_id: '42',
      link: { completed_redirect_url: 'https://app.example.com/verified' },
    })
  })

  it('answers a null link when the run has none, and sends no link options unless configured', async () => {
    const api = await standIn((req, res) =>
      req.url === '/v3.6/applicants' ? json(res, 201, { id: 'app_1' }) : json(res, 201, { id: 'wfr_2', link: null }),
    )
    servers.push(api.server)
    const provider = onfidoIdentityProvider({ baseUrl: api.url, token: 't', workflowId: 'wf' })
    expect(await provider.startCheck(applicant)).toEqual({ reference: 'wfr_2', redirectUrl: null })
    expect(api.seen[1]!.body).not.toHaveProperty('link')
  })

  it('throws on a refusal, without creating a run after a failed applicant', async () => {
    const api = await standIn((_req, res) => json(res, 401, { error: { type: 'authorization_error' } }))
    servers.push(api.server)
    const provider = onfidoIdentityProvider({ baseUrl: api.url, token: 'wrong', workflowId: 'wf' })
    const failure = await provider.startCheck(applicant).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(IdentityProviderError)
    expect((failure as IdentityProviderError).status).toBe(401)
    expect(api.seen).toHaveLength(1)
  })

  it('throws on an answer without an id', async () => {
    const api = await standIn((_req, res) => json(res, 201, { nothing: true }))
    servers.push(api.server)
    const provider = onfidoIdentityProvider({ baseUrl: api.url, token: 't', workflowId: 'wf' })
    await expect(provider.startCheck(applicant)).rejects.toThrow(/unexpected answer/)
  })

  it('gives up after its timeout when the provider does not answer', async () => {
    const api = await standIn(() => undefined)
    servers.push(api.server)
    const provider = onfidoIdentityProvider({ baseUrl: api.url, token: 't', workflowId: 'wf', timeoutMs: 200 })
    const started = Date.now()
    await expect(provider.startCheck(applicant)).rejects.toThrow()
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})

describe('identity provider from configuration', () => {
  it('is offline without a token, and each offline check has its own reference and no link', async () => {
    const provider = identityProviderFromConfig(loadConfig({}))
    expect(provider.mode).toBe('offline')
    const [a, b] = [await provider.startCheck(applicant), await offlineIdentityProvider().startCheck(applicant)]
    expect(a.redirectUrl).toBeNull()
    expect(a.reference).toMatch(/^idv_offline_[A-Za-z0-9_-]{16}$/)
    expect(a.reference).not.toBe(b.reference)
  })

  it('is live with a token and a workflow, and refuses a token without a workflow', async () => {
    const api = await standIn(onfidoLike)
    servers.push(api.server)
    const live = identityProviderFromConfig(
      loadConfig({ IDENTITY_PROVIDER_URL: api.url, IDENTITY_PROVIDER_TOKEN: 'tok', IDENTITY_PROVIDER_WORKFLOW_ID: 'wf_9' }),
    )
    expect(live.mode).toBe('live')
    expect((await live.startCheck(applicant)).reference).toBe('wfr_456')
    expect((api.seen[1]!.body as { workflow_id: string }).workflow_id).toBe('wf_9')
    expect(() => identityProviderFromConfig(loadConfig({ IDENTITY_PROVIDER_TOKEN: 'tok' }))).toThrow(/IDENTITY_PROVIDER_WORKFLOW_ID/)
  })
})
