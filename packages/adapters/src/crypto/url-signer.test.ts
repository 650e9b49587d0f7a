import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { UrlSigner } from './url-signer'
import { singleCharacterEdit } from './tampering.fixtures'

const NOW = new Date('2026-11-22T10:00:00Z')
const signer = new UrlSigner(Buffer.alloc(32, 9), () => NOW)
const inADay = new Date(NOW.getTime() + 86_400_000)

const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/)
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`)
const params = fc.dictionary(
  fc.stringMatching(/^[a-z_]{1,8}$/).filter((k) => k !== 'signature' && k !== 'expires'),
  fc.string({ minLength: 1, maxLength: 16 }),
  { minKeys: 0, maxKeys: 3 },
)
const signedUrl = fc.tuple(path, params).map(([p, q]) => {
  const query = new URLSearchParams(q).toString()
  return signer.sign(query ? `${p}?${query}` : p, inADay)
})

/** Where each part of a signed URL lies, so an edit can be aimed at one of them. */
function parts(url: string) {
  const q = url.indexOf('?')
  const ranges: Array<{ part: string; from: number; to: number }> = [{ part: 'path', from: 0, to: q }]
  let offset = q + 1
  for (const pair of url.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=')
    const name = pair.slice(0, eq)
    const kind = name === 'signature' || name === 'expires' ? name : 'query value'
    if (pair.length > eq + 1) ranges.push({ part: kind, from: offset + eq + 1, to: offset + pair.length })
    offset += pair.length + 1
  }
  return ranges
}

const tamperedPart = (wanted: string) =>
  signedUrl.chain((url) => {
    const range = parts(url).find((r) => r.part === wanted)
    return range ? singleCharacterEdit(url, range.from, range.to) : fc.constant(undefined)
  })

describe('signed URLs', () => {
  it('accepts every URL it signed, until it expires', () => {
    fc.assert(fc.property(signedUrl, (url) => signer.verify(url)))
  })

  it.each(['path', 'query value', 'expires', 'signature'])('refuses a URL whose %s has one character changed', (part) => {
    fc.assert(
      fc.property(tamperedPart(part), (tampered) => tampered === undefined || !signer.verify(tampered)),
      { numRuns: 300 },
    )
  })

  it('refuses a URL with any single character changed anywhere', () => {
    fc.assert(fc.property(signedUrl.chain((url) => singleCharacterEdit(url)), (tampered) => !signer.verify(tampered)), {
      numRuns: 500,
    })
  })

  it('refuses a URL with a parameter added or its signature removed', () => {
    const url = signer.sign('/api/users/username/claim/5?username=ada', inADay)
    expect(signer.verify(`${url}&username=eve`)).toBe(false)
    expect(signer.verify(url.replace(/&signature=[0-9a-f]+$/, ''))).toBe(false)
    expect(signer.verify(`${url}&signature=${'0'.repeat(64)}`)).toBe(false)
  })

  it('refuses an expired URL and one signed with another key', () => {
    const url = signer.sign('/api/x?a=1', new Date(NOW.getTime() - 1000))
    expect(signer.verify(url)).toBe(false)
    const other = new UrlSigner(Buffer.alloc(32, 8), () => NOW)
    expect(other.verify(signer.sign('/api/x?a=1', inADay))).toBe(false)
  })
})
