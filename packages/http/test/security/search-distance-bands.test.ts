import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addSearchableTutor, catalogOf, testDatabaseKinds } from '@tutoring/adapters/testing'
import { distanceMiles, type GeoPoint } from '@tutoring/domain/shared'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding, Tally } from '../support/findings'

type Hit = { id: number; location: { distance: number | null } }

/** A home off the 0.01° grid, so its rounded public point lies a few hundred yards away. */
const HOME: GeoPoint = { lat: 51.504817, lng: -0.122643 }
const MILE_LAT = 1 / 69.05
const MILE_LNG = 1 / (69.05 * Math.cos((HOME.lat * Math.PI) / 180))

/** Every digit of a coordinate past the second decimal place, as it would appear in a body. */
const exactDigits = (x: number) => x.toFixed(6).replace(/0+$/, '')

/**
 * Issue 13: three searches from chosen points placed a tutor's home to about 100 m, because
 * search answered distances to a hundredth of a mile from the exact coordinates. CONTRACT
 * §14: distance in bands no finer than 0.5 mile; exact coordinates never leave the service.
 */
describe.each(testDatabaseKinds())('search distances give no home away, on %s', (kind) => {
  let t: TestContext
  let tutorId = 0

  beforeAll(async () => {
    t = await createTestContext(kind)
    tutorId = await addSearchableTutor(t, await catalogOf(t), {
      location: { postcode: 'SW1A 2AA', outcode: 'SW1A', lat: HOME.lat, lng: HOME.lng, travelDistanceMiles: 25 },
    })
  })
  afterAll(() => t.close())

  const searchFrom = async (tally: Tally, place: GeoPoint, extra = '') => {
    const res = tally.send(await t.request<{ data: Hit[] }>('GET', `/api/v1/search?lat=${place.lat}&lng=${place.lng}&sort=distance${extra}`))
    expect(res.status).toBe(200)
    expect(res.text).not.toContain(exactDigits(HOME.lat))
    expect(res.text).not.toContain(exactDigits(HOME.lng))
    return res.body.data.find((hit) => hit.id === tutorId)!.location.distance!
  }

  it('answers half-mile bands, so three chosen points can not place the home closer than the band', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Privacy: triangulating a tutor from search distances',
      tried: "searches from three points 1.5 miles around a tutor's home, and a walk across their travel-distance edge in 0.01-mile steps",
      held: 'distances in 0.5-mile bands measured to the location rounded to 2 places; places half a mile from the home stay consistent with all three answers, the best guess misses by a quarter mile; the edge found lies around the rounded point, not the home',
    })
    const tally = new Tally()
    const probes: GeoPoint[] = [
      { lat: HOME.lat + 1.5 * MILE_LAT, lng: HOME.lng },
      { lat: HOME.lat, lng: HOME.lng + 1.5 * MILE_LNG },
      { lat: HOME.lat - 1.1 * MILE_LAT, lng: HOME.lng - 1.1 * MILE_LNG },
    ]
    const answers: number[] = []
    for (const probe of probes) answers.push(await searchFrom(tally, probe))
    for (const d of answers) expect(d * 2).toBe(Math.round(d * 2))

    // The attacker's best: every point (on a 0.02-mile grid) whose distance to each probe lies in its band.
    const feasible: GeoPoint[] = []
    for (let y = -3; y <= 3; y += 0.02) {
      for (let x = -3; x <= 3; x += 0.02) {
        const p = { lat: HOME.lat + y * MILE_LAT, lng: HOME.lng + x * MILE_LNG }
        if (probes.every((probe, i) => distanceMiles(p, probe) > answers[i]! - 0.5 && distanceMiles(p, probe) <= answers[i]!)) feasible.push(p)
      }
    }
    expect(feasible.length).toBeGreaterThan(0)
    // Not closer than the band: the answers can not rule out places half a mile from the home,
    // and the attacker's best single guess (the region's centre) misses it by a quarter mile.
    const farthest = Math.max(...feasible.map((p) => distanceMiles(p, HOME)))
    expect(farthest).toBeGreaterThanOrEqual(0.5)
    const centre = { lat: feasible.reduce((s, p) => s + p.lat, 0) / feasible.length, lng: feasible.reduce((s, p) => s + p.lng, 0) / feasible.length }
    expect(distanceMiles(centre, HOME)).toBeGreaterThanOrEqual(0.25)
    finding.figures = { requests: tally.requests }
  })

  it('measures from the rounded point, so walking the travel-distance edge finds that point and not the home', async ({ task }) => {
    recordFinding(task, {
      class: 'Privacy: triangulating a tutor from search distances',
      tried: "searches from three points 1.5 miles around a tutor's home, and a walk across their travel-distance edge in 0.01-mile steps",
      held: 'distances in 0.5-mile bands measured to the location rounded to 2 places; places half a mile from the home stay consistent with all three answers, the best guess misses by a quarter mile; the edge found lies around the rounded point, not the home',
    })
    const tally = new Tally()
    // Walk north in 0.01-mile steps: the last step where an in-person search still finds the
    // tutor is 25 miles from the point search measures from.
    let lastIn = Number.NaN
    for (let miles = 24.4; miles <= 25.2; miles += 0.01) {
      const place = { lat: HOME.lat + miles * MILE_LAT, lng: HOME.lng }
      const res = tally.send(await t.request<{ data: Hit[] }>('GET', `/api/v1/search?lat=${place.lat}&lng=${place.lng}&filters[lesson_type]=students_home`))
      if (res.body.data.some((hit) => hit.id === tutorId)) lastIn = miles
    }
    expect(lastIn).not.toBeNaN()
    const edge = { lat: HOME.lat + lastIn * MILE_LAT, lng: HOME.lng }
    const rounded = { lat: Math.round(HOME.lat * 100) / 100, lng: Math.round(HOME.lng * 100) / 100 }
    expect(Math.abs(distanceMiles(edge, rounded) - 25)).toBeLessThan(0.02)
    expect(Math.abs(distanceMiles(edge, HOME) - 25)).toBeGreaterThan(0.2)
  })

  it('never shows exact coordinates on the public profile', async ({ task }) => {
    recordFinding(task, {
      class: 'Privacy: triangulating a tutor from search distances',
      tried: "searches from three points 1.5 miles around a tutor's home, and a walk across their travel-distance edge in 0.01-mile steps",
      held: 'distances in 0.5-mile bands measured to the location rounded to 2 places; places half a mile from the home stay consistent with all three answers, the best guess misses by a quarter mile; the edge found lies around the rounded point, not the home',
    })
    const student = await t.register('student')
    const res = await t.request<{ data: { location: { lat?: number; lng?: number } | null } }>('GET', `/api/tutors/${tutorId}/profile`, { token: student.token })
    expect(res.status).toBe(200)
    expect(res.text).not.toContain(exactDigits(HOME.lat))
    expect(res.text).not.toContain(exactDigits(HOME.lng))
    for (const value of [res.body.data.location?.lat, res.body.data.location?.lng]) {
      if (value !== undefined) expect(Math.round(value * 100) / 100).toBe(value)
    }
  })
})
