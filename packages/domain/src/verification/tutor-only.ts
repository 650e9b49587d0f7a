import { err, ok, type Result } from 'neverthrow'
import { ROLE_IDS, forbidden, type Forbidden, type Actor } from '../shared'

/** Only tutors are verified; anyone else asking to submit is refused (403). */
export const tutorOnly = (actor: Actor): Result<Actor, Forbidden> =>
  actor.roleId === ROLE_IDS.tutor ? ok(actor) : err(forbidden('Only tutors submit verifications.'))
