import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, type ECDH } from 'node:crypto'
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { jwtVerify } from 'jose'
import selfsigned from 'selfsigned'

/** A push the endpoint accepted: its headers' meaning and the payload it decrypted. */
export type WebPushReceived = {
  subscriptionId: string
  messageId: string
  ttl: number
  urgency: string | undefined
  vapid: { subject: string; audience: string; expiresAt: number }
  /** The decrypted payload, as text. */
  payload: string
}

export type WebPushStandIn = {
  /** `https://127.0.0.1:port`; its certificate is `ca`. */
  origin: string
  /** The self-signed certificate of the stand-in, for the client to trust. */
  ca: string
  /**
   * A new browser subscription made with `applicationServerKey` (the VAPID public key): the
   * `push_token` a web device registers is `JSON.stringify` of it.
   */
  subscribe(applicationServerKey: string): { id: string; subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } } }
  /** The user unsubscribed: the endpoint answers 410 Gone from now on. */
  unsubscribe(id: string): void
  received: WebPushReceived[]
  /** Requests refused, with the reason. */
  refused: string[]
  close(): Promise<void>
}

type Subscription = { keys: ECDH; auth: Buffer; applicationServerKey: string; gone: boolean }

/**
 * A local push service (HTTPS on 127.0.0.1 with a self-signed certificate) that checks
 * what RFC 8030/8291/8292 ask of a sender: a `TTL` header, `Content-Encoding: aes128gcm`,
 * a VAPID `Authorization: vapid t=<JWT>, k=<key>` whose key is the one the browser
 * subscribed with and whose ES256 JWT names this origin as audience, expires within 24 h
 * and gives a `mailto:`/`https:` subject; then it decrypts the payload with the
 * subscription's private key and auth secret (node:crypto, independent of the sender's library).
 */
export async function startWebPushStandIn(): Promise<WebPushStandIn> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  })
  const subscriptions = new Map<string, Subscription>()
  const received: WebPushReceived[] = []
  const refused: string[] = []
  let origin = ''

  const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      void accept(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks)).then(
        ({ status, text, location }) => reply(res, status, text, location),
        (error: unknown) => reply(res, 500, String(error)),
      )
    })
  })

  async function accept(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<{ status: number; text: string; location?: string }> {
    const refuse = (status: number, reason: string) => {
      refused.push(reason)
      return { status, text: reason }
    }
    const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(path)?.[1]
    const subscription = id ? subscriptions.get(id) : undefined
    if (method !== 'POST' || !id || !subscription) return refuse(404, `no subscription at ${method} ${path}`)
    if (subscription.gone) return refuse(410, 'the subscription has expired or been unsubscribed')
    const ttl = Number(headers.ttl)
    if (headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0) return refuse(400, `TTL header missing or not a whole number: ${String(headers.ttl)}`)
    if (headers['content-encoding'] !== 'aes128gcm') return refuse(415, `Content-Encoding ${String(headers['content-encoding'])}`)
    const auth = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(headers.authorization ?? '')
    if (!auth) return refuse(401, `Authorization is not VAPID: ${String(headers.authorization)}`)
    const [, jwt, key] = auth as unknown as [string, string, string]
    if (key !== subscription.applicationServerKey) return refuse(403, 'VAPID key is not the one the browser subscribed with')
    let vapid: WebPushReceived['vapid']
    try {
      const { payload } = await jwtVerify(jwt, publicKeyOf(key), { algorithms: ['ES256'], audience: origin, requiredClaims: ['exp', 'sub'] })
      if (payload.exp! > Date.now() / 1000 + 24 * 3600) return refuse(401, 'VAPID JWT expires more than 24 hours ahead')
      if (!/^(mailto:|https:\/\/)/.test(String(payload.sub))) return refuse(401, `VAPID subject ${String(payload.sub)}`)
      vapid = { subject: String(payload.sub), audience: String(payload.aud), expiresAt: payload.exp! }
    } catch (error) {
      return refuse(401, `VAPID JWT refused: ${error instanceof Error ? error.message : String(error)}`)
    }
    let payload: string
    try {
      payload = decryptAes128gcm(body, subscription.keys, subscription.auth).toString('utf8')
    } catch (error) {
      return refuse(400, `payload does not decrypt: ${error instanceof Error ? error.message : String(error)}`)
    }
    const messageId = randomBytes(8).toString('hex')
    const urgency = headers.urgency
    received.push({ subscriptionId: id, messageId, ttl, urgency: typeof urgency === 'string' ? urgency : undefined, vapid, payload })
    return { status: 201, text: '', location: `${origin}/messages/${messageId}` }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    ca: pems.cert,
    subscribe(applicationServerKey) {
      const id = randomBytes(12).toString('base64url')
      const keys = createECDH('prime256v1')
      keys.generateKeys()
      const auth = randomBytes(16)
      subscriptions.set(id, { keys, auth, applicationServerKey, gone: false })
      return {
        id,
        subscription: { endpoint: `${origin}/push/${id}`, expirationTime: null, keys: { p256dh: keys.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
      }
    },
    unsubscribe(id) {
      const found = subscriptions.get(id)
      if (found) found.gone = true
    },
    received,
    refused,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** An uncompressed P-256 point (base64url) as a public key. */
function publicKeyOf(raw: string) {
  const point = Buffer.from(raw, 'base64url')
  if (point.length !== 65 || point[0] !== 4) throw new Error('the VAPID key is not an uncompressed P-256 point')
  return createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  })
}

/**
 * RFC 8188 content coding with RFC 8291's key derivation: the header carries the salt, the
 * record size and the sender's ephemeral public key; one record, padded with a 0x02 delimiter.
 */
function decryptAes128gcm(body: Buffer, receiver: ECDH, authSecret: Buffer): Buffer {
  if (body.length < 21) throw new Error('shorter than the header')
  const salt = body.subarray(0, 16)
  const recordSize = body.readUInt32BE(16)
  const idLength = body[20]!
  const senderPublic = body.subarray(21, 21 + idLength)
  const record = body.subarray(21 + idLength)
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not a P-256 public key`)
  if (record.length > recordSize) throw new Error('more than one record')
  const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) => Buffer.from(hkdfSync('sha256', ikm, salt, info, length))
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiver.getPublicKey(), senderPublic])
  const ikm = hkdf(receiver.computeSecret(senderPublic), authSecret, keyInfo, 32)
  const contentKey = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16)
  const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12)
  const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()])
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  if (padded[end] !== 2) throw new Error('the last record lacks its 0x02 delimiter')
  return padded.subarray(0, end)
}

function reply(res: ServerResponse, status: number, text: string, location?: string) {
  res.writeHead(status, { 'content-type': 'text/plain', ...(location ? { location } : {}) })
  res.end(text)
}
