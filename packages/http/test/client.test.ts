import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { createTutoringClient, idempotencyKey, pages, ProblemError, unwrap, type components, type paths, type TutoringClient } from '@tutoring/client'
import { SAMPLES, addSearchableTutor, catalogOf } from '@tutoring/adapters/testing'
import { CLIENT_TYPES_FILE, clientTypes } from '../scripts/client-types'
import { createTestContext, type TestContext } from './support/harness'

/**
 * @tutoring/client against a listening server: its checked-in types are those of the document
 * the app serves, and the tutor-to-paid-booking path compiles and runs through it with no cast.
 */
describe('the typed HTTP client', () => {
  let t: TestContext
  let client: TutoringClient
  beforeAll(async () => {
    t = await createTestContext('pglite')
    client = createTutoringClient({ baseUrl: await t.listen() })
  })
  afterAll(() => t.close())

  it("has the types of the document the app serves (else: pnpm --filter @tutoring/client generate)", async () => {
    const served = await t.request('GET', '/openapi.json')
    expect(await clientTypes(served.text)).toBe(await readFile(CLIENT_TYPES_FILE, 'utf8'))
  })

  it('registers, uploads a picture, searches, reads availability, books (replayed by its Idempotency-Key) and pays', async () => {
    const registered = await unwrap(
      client.POST('/api/auth/register', {
        body: { email: `client.${Date.now()}@example.com`, password: 'correct horse battery', firstname: 'Cli', lastname: 'Ent', role: 'student', country: 'GB' },
      }),
    )
    client.setToken(registered.data.token)

    // A file part is a Blob in the types, sent as FormData.
    const stored = await unwrap(
      client.POST('/api/files', {
        body: { file: new Blob([SAMPLES.png]), purpose: 'profile_picture' },
        bodySerializer: (body) => {
          const form = new FormData()
          form.append('file', body.file, 'me.png')
          if (body.purpose) form.append('purpose', body.purpose)
          return form
        },
      }),
    )
    expect(stored.data.mime_type).toBe('image/png')

    const catalog = await catalogOf(t)
    const tutorId = await addSearchableTutor(t, catalog)
    const subject = catalog.subjects.find((s) => s.levelIds.length > 0)

    const found = []
    // The query typed as the server reads it: integers, a repeated name, an enum.
    const search = (page: number) =>
      client.GET('/api/v1/search', {
        params: { query: { subject_id: subject?.id, 'subject_level_ids[]': subject?.levelIds.slice(0, 1), sort: 'price_asc', page, per_page: 1 } },
      })
    for await (const hit of pages(search)) found.push(hit)
    const hit = found.find((item) => item.id === tutorId)
    expect(hit?.lesson_price_breakdown.currency_code).toBe('GBP')
    const teachId = hit?.teaching_info.teach_id ?? 0
    const levelId = hit?.teaching_info.subject_level?.id ?? 0

    const { data: availability } = await unwrap(client.GET('/api/availabilites', { params: { query: { teach_id: teachId, lesson_type: 3 } } }))
    const day = availability.availabilities.find((d) => d.times.length > 0)
    const time = day?.times[0]
    expect(time).toBeDefined()
    const start = new Date(`${day?.date}T${time?.start}:00Z`)
    const finish = new Date(start.getTime() + 3_600_000)

    const key = idempotencyKey()
    const book = () =>
      client.POST('/api/bookings', {
        params: key,
        body: { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, start: start.toISOString(), finish: finish.toISOString() },
      })
    const booking = await unwrap(book())
    const replayed = await unwrap(book())
    expect(replayed.data.id).toBe(booking.data.id)

    const paid = await unwrap(client.POST('/api/payments/pay', { params: idempotencyKey(), body: { booking_id: booking.data.id, payment_method: 'pm_card_visa' } }))
    expect(paid.data.payment_id).toBeGreaterThan(0)
  })

  // Checked by the typecheck (the drift test above holds src/api.ts to the served document):
  // a document that types these more loosely again fails CI.
  it('types what the document names: query integers, arrays and enums, lesson types, states, the address, file parts', () => {
    type SearchQuery = NonNullable<paths['/api/v1/search']['get']['parameters']['query']>
    expectTypeOf<SearchQuery['per_page']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<SearchQuery['subject_level_ids[]']>().toEqualTypeOf<number[] | undefined>()
    expectTypeOf<SearchQuery['sort']>().toEqualTypeOf<'distance' | 'rating' | 'price_asc' | 'price_desc' | undefined>()
    expectTypeOf<SearchQuery['filters[lesson_type]']>().toEqualTypeOf<'online' | 'tutors_home' | 'students_home' | undefined>()
    type AvailabilityQuery = paths['/api/availabilites']['get']['parameters']['query']
    expectTypeOf<AvailabilityQuery['lesson_type']>().toEqualTypeOf<1 | 2 | 3 | undefined>()
    type Schemas = components['schemas']
    expectTypeOf<Schemas['BookingRequest']['lesson_type']>().toEqualTypeOf<1 | 2 | 3>()
    expectTypeOf<Schemas['Lesson']['address']>().toEqualTypeOf<Schemas['LessonAddress'] | null>()
    expectTypeOf<Schemas['LessonAddress']['postcode']>().toEqualTypeOf<string>()
    expectTypeOf<Schemas['Booking']['state']>().toEqualTypeOf<0 | 1 | 3 | 4 | 5>()
    expectTypeOf<Schemas['Lesson']['state_name']>().toEqualTypeOf<'CANCELLED' | 'ACTIVE' | 'RESCHEDULE'>()
    type Upload = NonNullable<paths['/api/files']['post']['requestBody']>['content']['multipart/form-data']
    expectTypeOf<Upload['file']>().toEqualTypeOf<Blob>()
  })

  it('answers a problem as a typed error, not a throw, and unwrap throws it as ProblemError', async () => {
    const anonymous = createTutoringClient({ baseUrl: await t.listen() })
    const { error, response } = await anonymous.GET('/api/bookings', { params: { query: { page: 1 } } })
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
    expect(error?.code).toBe('unauthenticated')
    await expect(unwrap(anonymous.GET('/api/bookings', { params: { query: { page: 0 } } }))).rejects.toBeInstanceOf(ProblemError)
  })
})
