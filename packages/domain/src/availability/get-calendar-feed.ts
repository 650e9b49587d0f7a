import { errAsync, ResultAsync } from 'neverthrow'
import type { Actor, Forbidden } from '../shared'
import { requireTutor } from '../teaching'
import type { AvailabilityDeps } from './ports'

/** The calling tutor's feed URL (null when none). */
export function getCalendarFeed(deps: Pick<AvailabilityDeps, 'uow'>, actor: Actor): ResultAsync<{ url: string | null }, Forbidden> {
  const tutor = requireTutor(actor)
  if (tutor.isErr()) return errAsync(tutor.error)
  return ResultAsync.fromSafePromise(deps.uow.repos.calendarFeeds.findForTutor(tutor.value.id).then((url) => ({ url })))
}
