import { z } from 'zod'
import type { AddressDirectory, AddressMatch } from '@tutoring/domain/availability'
import type { Logger } from '../logger'

const DEFAULT_TIMEOUT_MS = 3_000

/** The parts of a postcodes.io result we read. */
const PostcodeResult = z.object({
  postcode: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  admin_district: z.string().nullable().optional(),
  post_town: z.string().nullable().optional(),
})
type PostcodeResult = z.infer<typeof PostcodeResult>
const OneAnswer = z.object({ status: z.number(), result: PostcodeResult.nullable().optional() })
const ManyAnswer = z.object({ status: z.number(), result: z.array(PostcodeResult).nullable().optional() })

class PostcodesApiError extends Error {}

const toMatch = (result: PostcodeResult): AddressMatch | undefined =>
  result.latitude === null || result.longitude === null
    ? undefined
    : {
        line1: null,
        line2: null,
        city: result.post_town ?? result.admin_district ?? null,
        postcode: result.postcode,
        country: 'GB',
        lat: result.latitude,
        lng: result.longitude,
      }

/**
 * Geocoding and postcode search over a postcodes.io-compatible API (e.g. a self-hosted
 * postcodes.io): `GET /postcodes/{postcode}` and `GET /postcodes?q=`. postcodes.io knows no
 * address lines, so a match is the postcode with its town and centroid. When the service
 * fails or times out, the answer comes from `fallback` (the postcodes table, then the
 * district centroids) and a warning is logged: a geocoder outage must not turn availability
 * into a 500. A postcode the service does not know (one too new for it) is the fallback's too,
 * so it still resolves to its district, as offline.
 */
export function postcodesIoDirectory(options: {
  baseUrl: string
  fallback: AddressDirectory
  logger: Logger
  timeoutMs?: number
  fetch?: typeof fetch
}): AddressDirectory {
  const base = options.baseUrl.replace(/\/$/, '')
  const doFetch = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS

  async function get(path: string): Promise<unknown> {
    const response = await doFetch(`${base}${path}`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) })
    if (response.status === 404) return { status: 404, result: null }
    if (!response.ok) throw new PostcodesApiError(`postcodes API answered ${response.status}`)
    return response.json()
  }

  /** The service's answer, else (it failed, or knows no such postcode: undefined) the fallback's. */
  async function orFallback<T>(what: string, ask: () => Promise<T | undefined>, fallback: () => Promise<T>): Promise<T> {
    try {
      const answer = await ask()
      if (answer !== undefined) return answer
    } catch (error) {
      options.logger.warn({ err: error, what }, 'postcodes API unavailable; answering from the postcodes table')
    }
    return fallback()
  }

  async function lookup(postcode: string): Promise<AddressMatch | undefined> {
    const answer = OneAnswer.parse(await get(`/postcodes/${encodeURIComponent(postcode)}`))
    return answer.result ? toMatch(answer.result) : undefined
  }

  return {
    locate: (postcode) =>
      orFallback(
        'locate',
        async () => {
          const match = await lookup(postcode)
          return match && { lat: match.lat, lng: match.lng }
        },
        () => options.fallback.locate(postcode),
      ),
    addressesAt: (postcode) =>
      orFallback(
        'addressesAt',
        async () => {
          const match = await lookup(postcode)
          return match && [match]
        },
        () => options.fallback.addressesAt(postcode),
      ),
    postcodesStartingWith: (prefix, limit) =>
      orFallback(
        'postcodesStartingWith',
        async () => {
          const answer = ManyAnswer.parse(await get(`/postcodes?q=${encodeURIComponent(prefix)}&limit=${limit}`))
          return (answer.result ?? []).flatMap((r) => toMatch(r) ?? []).slice(0, limit)
        },
        () => options.fallback.postcodesStartingWith(prefix, limit),
      ),
  }
}
