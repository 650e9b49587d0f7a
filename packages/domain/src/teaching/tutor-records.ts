import { err, ok, type Result } from 'neverthrow'
import { ROLE_IDS, actsFor, forbidden, isInternal, notFound, type Forbidden, type NotFound, type Actor } from '../shared'

/**
 * Who may act on a tutor's own records (teaches, schedule, location, holidays): the tutor,
 * and internal staff. To anyone else such a record does not exist (404); a collection of
 * them is a tutor's thing, so other roles are refused it (403).
 */
export const isTutor = (user: Pick<Actor, 'roleId'>): boolean => user.roleId === ROLE_IDS.tutor

/** Creating records: only a tutor, always for themselves (nobody sets an owner). */
export const requireTutor = (actor: Actor): Result<Actor, Forbidden> =>
  isTutor(actor) ? ok(actor) : err(forbidden('Only tutors keep teaches, schedules, locations and holidays.'))

export const visibleTutorRecord = <R extends { tutorId: number }>(
  actor: Actor,
  record: R | undefined,
  resource: string,
): Result<R, NotFound> => (record && actsFor(actor, record.tutorId) ? ok(record) : err(notFound(resource)))

/**
 * Which tutor's records a list shows: a tutor sees their own; internal staff see every
 * tutor's, or one tutor's with `tutorId`; other roles have none to list.
 */
export const listScope = (actor: Actor, tutorId: number | undefined): Result<{ tutorId?: number }, Forbidden> => {
  if (isInternal(actor.roleId)) return ok(tutorId === undefined ? {} : { tutorId })
  if (!isTutor(actor)) return err(forbidden('Only tutors and internal staff may list these records.'))
  if (tutorId !== undefined && tutorId !== actor.id) return err(forbidden("Only internal staff may list another tutor's records."))
  return ok({ tutorId: actor.id })
}
