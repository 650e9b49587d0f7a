import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { jwtVerify } from 'jose'

/** A message FCM accepted, as it arrived. */
export type FcmReceived = { name: string; projectId: string; accessToken: string; message: FcmMessageBody }
export type FcmMessageBody = {
  token: string
  notification?: { title?: string; body?: string }
  data?: Record<string, string>
  android?: { ttl?: string; priority?: string }
  apns?: { headers?: Record<string, string> }
}

/** An assertion the token endpoint accepted: its verified claims. */
export type FcmTokenGrant = { accessToken: string; claims: Record<string, unknown>; kid: string | undefined }

export type FcmStandIn = {
  url: string
  projectId: string
  /** A service-account JSON key whose `token_uri` is this stand-in's; its public key checks every assertion. */
  serviceAccountJson: string
  grants: FcmTokenGrant[]
  /** Assertions refused, with the reason. */
  refusedGrants: string[]
  received: FcmReceived[]
  /** Tokens FCM answers `UNREGISTERED` (404) for, as for an uninstalled app. */
  unregister(token: string): void
  /** Every access token issued so far stops working (401), as when one is revoked. */
  revokeAccessTokens(): void
  /** The next `count` sends answer 503 `UNAVAILABLE`. */
  failNext(count?: number): void
  /** `expires_in` of the access tokens issued from now on. */
  setTokenLifetime(seconds: number): void
  close(): Promise<void>
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging'
const FCM_ERROR = 'type.googleapis.com/google.firebase.fcm.v1.FcmError'

/**
 * A local stand-in for FCM HTTP v1 and Google's OAuth2 token endpoint (node:http on
 * 127.0.0.1). The token endpoint takes only the RFC 7523 bearer grant, with an RS256
 * assertion signed by the service account's key (checked against its public key), issued
 * by its `client_email`, for its `token_uri`, with the messaging scope and at most an hour
 * of life. `messages:send` takes only an access token it issued, for its project, and checks
 * the message as FCM does (a token, string data, a TTL in seconds).
 */
export async function startFcmStandIn(projectId = 'tutoring-test'): Promise<FcmStandIn> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const clientEmail = `push-sender@${projectId}.iam.gserviceaccount.com`
  const keyId = randomBytes(20).toString('hex')
  const grants: FcmTokenGrant[] = []
  const refusedGrants: string[] = []
  const received: FcmReceived[] = []
  const gone = new Set<string>()
  const live = new Map<string, number>()
  let failures = 0
  let lifetime = 3599
  let tokenUri = ''

  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? ''
      if (req.method === 'POST' && path === '/token') {
        void grant(text, req.headers).then(({ status, body }) => send(res, status, body))
        return
      }
      const match = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path)
      if (req.method === 'POST' && match) {
        const { status, body } = messagesSend(decodeURIComponent(match[1]!), text, req.headers)
        send(res, status, body)
        return
      }
      send(res, 404, googleError(404, 'NOT_FOUND', `no route ${req.method} ${path}`))
    })
  })

  async function grant(text: string, headers: IncomingHttpHeaders) {
    const refuse = (reason: string) => {
      refusedGrants.push(reason)
      return { status: 400, body: { error: 'invalid_grant', error_description: reason } }
    }
    if (!/^application\/x-www-form-urlencoded/.test(headers['content-type'] ?? '')) return refuse('the body is not form-encoded')
    const form = new URLSearchParams(text)
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return refuse(`grant_type ${form.get('grant_type')}`)
    try {
      const { payload, protectedHeader } = await jwtVerify(form.get('assertion') ?? '', publicKey as KeyObject, {
        algorithms: ['RS256'],
        issuer: clientEmail,
        audience: tokenUri,
        requiredClaims: ['iat', 'exp', 'scope'],
      })
      if (!String(payload.scope).split(' ').includes(SCOPE)) return refuse(`scope ${String(payload.scope)}`)
      if (payload.exp! - payload.iat! > 3600) return refuse('the assertion lives longer than an hour')
      const accessToken = `ya29.${randomBytes(24).toString('base64url')}`
      live.set(accessToken, Date.now() + lifetime * 1000)
      grants.push({ accessToken, claims: payload, kid: protectedHeader.kid })
      return { status: 200, body: { access_token: accessToken, expires_in: lifetime, token_type: 'Bearer' } }
    } catch (error) {
      return refuse(error instanceof Error ? error.message : String(error))
    }
  }

  function messagesSend(project: string, text: string, headers: IncomingHttpHeaders) {
    const accessToken = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1] ?? ''
    const expiry = live.get(accessToken)
    if (expiry === undefined || expiry < Date.now()) {
      return { status: 401, body: googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.') }
    }
    if (project !== projectId) return { status: 403, body: googleError(403, 'PERMISSION_DENIED', `not allowed for project ${project}`) }
    if (failures > 0) {
      failures--
      return { status: 503, body: googleError(503, 'UNAVAILABLE', 'The service is currently unavailable.', 'UNAVAILABLE') }
    }
    let message: FcmMessageBody
    try {
      message = (JSON.parse(text) as { message: FcmMessageBody }).message
    } catch {
      return { status: 400, body: googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.') }
    }
    const invalid = checkMessage(message)
    if (invalid) return { status: 400, body: googleError(400, 'INVALID_ARGUMENT', invalid.message, 'INVALID_ARGUMENT', invalid.field) }
    if (gone.has(message.token)) return { status: 404, body: googleError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED') }
    const name = `projects/${projectId}/messages/${randomBytes(8).toString('hex')}`
    received.push({ name, projectId: project, accessToken, message })
    return { status: 200, body: { name } }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  tokenUri = `${url}/token`
  const serviceAccountJson = JSON.stringify({
    type: 'service_account',
    project_id: projectId,
    private_key_id: keyId,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    client_id: '1',
    token_uri: tokenUri,
  })
  return {
    url,
    projectId,
    serviceAccountJson,
    grants,
    refusedGrants,
    received,
    unregister: (token) => gone.add(token),
    revokeAccessTokens: () => live.clear(),
    failNext: (count = 1) => {
      failures = count
    },
    setTokenLifetime: (seconds) => {
      lifetime = seconds
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** FCM's own checks that matter here; a bad token names the `message.token` field, as FCM does. */
function checkMessage(message: FcmMessageBody | undefined): { message: string; field?: string } | undefined {
  if (!message || typeof message !== 'object') return { message: 'message is required' }
  if (typeof message.token !== 'string' || !/^[A-Za-z0-9:_-]{20,}$/.test(message.token)) {
    return { message: 'The registration token is not a valid FCM registration token', field: 'message.token' }
  }
  for (const [key, value] of Object.entries(message.data ?? {})) {
    if (typeof value !== 'string') return { message: `Invalid value at 'message.data[${key}].value' (TYPE_STRING)`, field: `message.data[${key}].value` }
  }
  if (message.android?.ttl !== undefined && !/^\d+(\.\d{1,9})?s$/.test(message.android.ttl)) {
    return { message: `Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration)`, field: 'message.android.ttl' }
  }
  return undefined
}

function googleError(code: number, status: string, message: string, errorCode?: string, field?: string) {
  const details: unknown[] = []
  if (errorCode) details.push({ '@type': FCM_ERROR, errorCode })
  if (field) details.push({ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description: message }] })
  return { error: { code, message, status, details } }
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' })
  res.end(JSON.stringify(body))
}
