import { sql, type Kysely } from 'kysely'
import type { LocationRepository, TutorLocationRecord } from '@tutoring/domain/schedule'
import type { Database } from '../db/database'
import type { LocationRow } from './locations.table'

const rowToLocation = (row: LocationRow): TutorLocationRecord => ({
  id: row.id,
  tutorId: row.tutor_id,
  postcode: row.postcode,
  outcode: row.outcode,
  lat: Number(row.lat),
  lng: Number(row.lng),
  travelDistanceMiles: Number(row.travel_distance_miles),
})

export function locationRepository(db: Kysely<Database>): LocationRepository {
  const all = () => db.selectFrom('locations').selectAll()
  return {
    async findById(id) {
      const row = await all().where('id', '=', id).executeTakeFirst()
      return row && rowToLocation(row)
    },
    async findForTutor(tutorId) {
      const row = await all().where('tutor_id', '=', tutorId).executeTakeFirst()
      return row && rowToLocation(row)
    },
    async list(filter, page) {
      let query = all()
      if (filter.tutorId !== undefined) query = query.where('tutor_id', '=', filter.tutorId)
      const [rows, count] = await Promise.all([
        query.orderBy('id').limit(page.perPage).offset((page.page - 1) * page.perPage).execute(),
        query.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { items: rows.map(rowToLocation), total: Number(count.n) }
    },
    async replace(tutorId, draft) {
      const values = {
        postcode: draft.postcode,
        outcode: draft.outcode,
        lat: draft.lat,
        lng: draft.lng,
        travel_distance_miles: draft.travelDistanceMiles,
      }
      // One per tutor: an upsert keeps two concurrent saves from leaving two rows.
      const row = await db
        .insertInto('locations')
        .values({ tutor_id: tutorId, ...values })
        .onConflict((oc) => oc.column('tutor_id').doUpdateSet({ ...values, updated_at: sql<Date>`now()` }))
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToLocation(row)
    },
    async update(id, draft) {
      const row = await db
        .updateTable('locations')
        .set({
          postcode: draft.postcode,
          outcode: draft.outcode,
          lat: draft.lat,
          lng: draft.lng,
          travel_distance_miles: draft.travelDistanceMiles,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToLocation(row)
    },
    async delete(id) {
      await db.deleteFrom('locations').where('id', '=', id).execute()
    },
  }
}
