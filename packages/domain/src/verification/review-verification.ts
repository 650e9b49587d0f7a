import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { ROLE_IDS,
  fieldError,
  forbidden,
  isInternal,
  notFound,
  type Forbidden,
  type NotFound,
  type ValidationFailed, type Actor } from '../shared'
import type { VerificationDeps } from './ports'
import { queueVerificationEffects } from './verification-effects'
import { internalReviewTrigger, transitionVerification, type VerificationKind, type VerificationTransitionError } from './verification'
import { statusOf, storedStatus, type VerificationRecord } from './verification-record'

export type InternalReview = { tutorId: number; kind: VerificationKind; status: 'PASS' | 'FAIL' }
export type ReviewVerificationError = Forbidden | NotFound | ValidationFailed | VerificationTransitionError

/**
 * `PUT /api/tutors/{id}/verifications/{kind}` (CONTRACT.md §10): staff record their review
 * of a DBS certificate or a qualification. A PASS needs an uploaded document (422
 * `document_missing`); identity is the provider's to decide (422); a trigger the machine
 * has no row for (a second PASS, a FAIL of nothing submitted) is a 409.
 */
export function reviewVerification(deps: VerificationDeps, actor: Actor, review: InternalReview): ResultAsync<VerificationRecord, ReviewVerificationError> {
  return new ResultAsync(run(deps, actor, review))
}

async function run(deps: VerificationDeps, actor: Actor, review: InternalReview): Promise<Result<VerificationRecord, ReviewVerificationError>> {
  if (!isInternal(actor.roleId)) return err(forbidden('Only internal staff review verifications.'))
  const tutor = await deps.uow.repos.users.findById(review.tutorId)
  if (!tutor || tutor.roleId !== ROLE_IDS.tutor) return err(notFound('tutor'))
  if (review.kind === 'identity') return err(fieldError('kind', 'identity is decided by the provider; staff review dbs and qualification'))

  return deps.uow.run(async (repos) => {
    const locked = await repos.verifications.lockByUserAndKind(review.tutorId, review.kind)
    const transition = transitionVerification(statusOf(locked), internalReviewTrigger(review.status), {
      kind: review.kind,
      documentUploaded: locked?.documentFileId != null,
    })
    if (transition.isErr()) return err(transition.error)
    // Without a row there is no document, so the machine has already refused.
    if (!locked) throw new Error('an internal review passed the machine without a verification record')
    const changed = await repos.verifications.update(locked.id, {
      status: storedStatus(transition.value.to),
      reviewedBy: actor.id,
      at: deps.clock.now(),
    })
    await queueVerificationEffects(repos.outbox, transition.value.effects, {
      record: changed,
      previous: locked.status,
      tutor,
      cause: `review:${changed.id}:${changed.updatedAt.getTime()}`,
      internalMailbox: deps.config.internalMailbox,
    })
    return ok(changed)
  })
}
