import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../logger'
import { osrmTravel } from './osrm'
import { estimateTravelMinutes, straightLineTravel } from './straight-line'

const SW1A = { lat: 51.501009, lng: -0.141588 }
const W1A = { lat: 51.518561, lng: -0.143799 }
const M1 = { lat: 53.481297, lng: -2.237018 }

describe('straight-line travel', () => {
  it('is the haversine distance x 1.3 at 20 mph, rounded up to 5 minutes', () => {
    expect(estimateTravelMinutes(SW1A, SW1A)).toBe(0)
    // 1.22 miles -> 1.58 road miles -> 4.8 minutes
    expect(estimateTravelMinutes(SW1A, W1A)).toBe(5)
    // 162.6 miles -> 211 road miles -> 634 minutes
    expect(estimateTravelMinutes(SW1A, M1)).toBe(635)
  })
  it('answers both ways for every place', async () => {
    expect(await straightLineTravel.between(SW1A, [W1A, M1])).toEqual({ to: [5, 635], from: [5, 635] })
  })
})

describe('OSRM travel', () => {
  const requests: string[] = []
  let mode: 'ok' | 'fail' | 'null' = 'ok'
  const server = createServer((req, res) => {
    requests.push(req.url ?? '')
    res.setHeader('content-type', 'application/json')
    if (mode === 'fail') {
      res.statusCode = 503
      return res.end('{}')
    }
    // origin, W1A, M1: seconds; row = source, column = destination.
    const durations = [
      [0, 601, 20_000],
      [421, 0, 19_000],
      [mode === 'null' ? null : 21_000, 18_000, 0],
    ]
    res.end(JSON.stringify({ code: 'Ok', durations }))
  })
  let travel: ReturnType<typeof osrmTravel>

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    travel = osrmTravel({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logger: createLogger('silent'), timeoutMs: 500 })
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('asks one table for every place and reads the origin row and column, rounded up to 5 minutes', async () => {
    mode = 'ok'
    expect(await travel.between(SW1A, [W1A, M1])).toEqual({ to: [15, 335], from: [10, 350] })
    expect(requests.at(-1)).toBe(
      '/table/v1/driving/-0.141588,51.501009;-0.143799,51.518561;-2.237018,53.481297?sources=0;1;2&destinations=0;1;2&annotations=duration',
    )
  })

  it('estimates a pair it can not route, and everything when the service fails', async () => {
    mode = 'null'
    expect((await travel.between(SW1A, [W1A, M1])).from).toEqual([10, 635])
    mode = 'fail'
    expect(await travel.between(SW1A, [W1A, M1])).toEqual({ to: [5, 635], from: [5, 635] })
  })

  it('makes no request without places', async () => {
    const before = requests.length
    expect(await travel.between(SW1A, [])).toEqual({ to: [], from: [] })
    expect(requests.length).toBe(before)
  })
})
