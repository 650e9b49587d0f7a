import { z } from 'zod'
import type { TravelTimes } from '@tutoring/domain/availability'
import type { GeoPoint } from '@tutoring/domain/shared'
import type { Logger } from '../../logger'
import { estimateTravelMinutes } from './straight-line'

const DEFAULT_TIMEOUT_MS = 3_000
const ROUND_TO_MINUTES = 5

const TableAnswer = z.object({
  code: z.string(),
  durations: z.array(z.array(z.number().nullable())).optional(),
})

const coordinate = (p: GeoPoint): string => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`
const roundUp = (seconds: number): number => Math.max(0, Math.ceil(seconds / 60 / ROUND_TO_MINUTES - 1e-9) * ROUND_TO_MINUTES)

/**
 * Driving times from an OSRM-compatible routing API: one `table` request for the origin and
 * every place (`sources=0;1..n`, `destinations=0;1..n`, durations in seconds), read from the
 * origin's row (to each place) and column (from each place), rounded up to 5 minutes. A pair
 * OSRM can not route, and the whole answer when the service fails or times out (logged), is
 * the straight-line estimate: an outage must not take availability down.
 */
export function osrmTravel(options: { baseUrl: string; logger: Logger; timeoutMs?: number; fetch?: typeof fetch; profile?: string }): TravelTimes {
  const base = options.baseUrl.replace(/\/$/, '')
  const doFetch = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const profile = options.profile ?? 'driving'

  async function table(points: readonly GeoPoint[]): Promise<(number | null)[][]> {
    const all = points.map((_, i) => i).join(';')
    const url = `${base}/table/v1/${profile}/${points.map(coordinate).join(';')}?sources=${all}&destinations=${all}&annotations=duration`
    const response = await doFetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) })
    if (!response.ok) throw new Error(`routing API answered ${response.status}`)
    const answer = TableAnswer.parse(await response.json())
    if (answer.code !== 'Ok' || !answer.durations) throw new Error(`routing API answered code ${answer.code}`)
    return answer.durations
  }

  return {
    async between(origin, places) {
      if (places.length === 0) return { to: [], from: [] }
      let durations: (number | null)[][] | undefined
      try {
        durations = await table([origin, ...places])
      } catch (error) {
        options.logger.warn({ err: error }, 'routing API unavailable; estimating travel from the straight line')
      }
      const pick = (seconds: number | null | undefined, place: GeoPoint): number =>
        typeof seconds === 'number' ? roundUp(seconds) : estimateTravelMinutes(origin, place)
      return {
        to: places.map((place, i) => pick(durations?.[0]?.[i + 1], place)),
        from: places.map((place, i) => pick(durations?.[i + 1]?.[0], place)),
      }
    },
  }
}
