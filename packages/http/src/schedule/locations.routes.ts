import { deleteLocation, listLocations, saveLocation, updateLocation } from '@tutoring/domain/schedule'
import { authApi, currentUser } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { listOf, meta, one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { LocationBody, LocationSchema, LocationUpdateBody, presentLocation } from './schedule.schemas'
import { idParam, tutorRecordsQuery } from '../teaching'

const tags = ['Locations']
const OWNERSHIP = "A tutor's location is seen and changed by that tutor and by internal staff; to anyone else it does not exist (404)."
const RULES =
  'The postcode must be a UK postcode (checked with the `postcode` library) and is stored upper case with one space. lat and lng go together; without them the postcode is located by the geocoder (422 `could not be located` on postcode when it cannot). travel_distance_miles: 0 to 100. The public tutor profile shows only the outward code (e.g. SW1A) and the travel distance.'

export function locationRoutes(app: App, services: Services): void {
  const deps = services.schedule

  mount(
    app,
    ['/api/v1/locations'],
    {
      method: 'get',
      tags,
      summary: "The caller's location (a list of at most one)",
      description: `${OWNERSHIP} Internal staff see every tutor's (or one tutor's with tutor_id); students and parents get 403.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { query: tutorRecordsQuery },
      responses: { 200: jsonContent(listOf(LocationSchema), 'Locations'), ...commonProblems },
    },
    async (c) => {
      const { tutor_id, page, per_page } = c.req.valid('query')
      const found = await unwrap(listLocations(deps, currentUser(c), { tutorId: tutor_id, page: { page, perPage: per_page } }))
      return c.json({ data: found.items.map(presentLocation), meta: meta(found.total, { page, per_page }) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/locations'],
    {
      method: 'post',
      tags,
      summary: "Set the caller's base for in-person lessons",
      description: `Tutor only (403 otherwise). One location per tutor: a POST replaces the one there was (same id). ${RULES}`,
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: LocationBody } }, required: true } },
      responses: { 201: jsonContent(one(LocationSchema), 'Saved'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const location = await unwrap(
        saveLocation(deps, currentUser(c), { postcode: body.postcode, lat: body.lat, lng: body.lng, travelDistanceMiles: body.travel_distance_miles }),
      )
      return c.json({ data: presentLocation(location) }, 201)
    },
  )

  mount(
    app,
    ['/api/v1/locations/{id}'],
    {
      method: 'put',
      tags,
      summary: 'Change a location',
      description: `${OWNERSHIP} Any of the fields. A new postcode without lat/lng is located afresh. ${RULES}`,
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { params: idParam, body: { content: { 'application/json': { schema: LocationUpdateBody } }, required: true } },
      responses: { 200: jsonContent(one(LocationSchema), 'Updated'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const location = await unwrap(
        updateLocation(deps, currentUser(c), {
          id: c.req.valid('param').id,
          patch: { postcode: body.postcode, lat: body.lat, lng: body.lng, travelDistanceMiles: body.travel_distance_miles },
        }),
      )
      return c.json({ data: presentLocation(location) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/locations/{id}'],
    {
      method: 'delete',
      tags,
      summary: 'Remove a location',
      description: `${OWNERSHIP} Without one, the tutor offers no in-person lessons in search.`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { 204: { description: 'Removed' }, ...commonProblems },
    },
    async (c) => {
      await unwrap(deleteLocation(deps, currentUser(c), c.req.valid('param').id))
      return c.body(null, 204)
    },
  )
}
