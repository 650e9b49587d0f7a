import { err, ok, type Result } from 'neverthrow'
import type { User } from '../accounts'
import { ROLE_IDS, forbidden, type Forbidden } from '../shared'

/** Only tutors are verified; anyone else asking to submit is refused (403). */
export const tutorOnly = (actor: User): Result<User, Forbidden> =>
  actor.roleId === ROLE_IDS.tutor ? ok(actor) : err(forbidden('Only tutors submit verifications.'))
