import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { User } from '../accounts'
import type { Forbidden, InvalidStateTransition } from '../shared'
import type { VerificationDeps, VerificationRepos } from './ports'
import { tutorOnly } from './tutor-only'
import { transitionVerification, type VerificationTransitionError } from './verification'
import { statusOf, storedStatus, type VerificationRecord } from './verification-record'
import type { IdentityCheck } from './ports'

export type StartedIdentityCheck = { record: VerificationRecord; created: boolean }
export type StartIdentityCheckError = Forbidden | InvalidStateTransition | VerificationTransitionError

const IDENTITY = { kind: 'identity', documentUploaded: false } as const

/**
 * `POST /api/v1/verification/identity`. A first check, or a new one after FAIL, is opened at
 * the provider and recorded PENDING under the provider's reference. While a check is
 * PENDING the same check is answered again (`created: false`): a double tap or a retry
 * never opens a second, billable check. PASS and INTERNAL_REVIEW refuse (409).
 */
export function startIdentityCheck(deps: VerificationDeps, actor: User): ResultAsync<StartedIdentityCheck, StartIdentityCheckError> {
  return new ResultAsync(run(deps, actor))
}

async function run(deps: VerificationDeps, actor: User): Promise<Result<StartedIdentityCheck, StartIdentityCheckError>> {
  const tutor = tutorOnly(actor)
  if (tutor.isErr()) return err(tutor.error)
  const current = await deps.uow.repos.verifications.findByUserAndKind(actor.id, 'identity')
  const allowed = transitionVerification(statusOf(current), 'submit', IDENTITY)
  if (allowed.isErr()) return err(allowed.error)
  if (current?.status === 'PENDING') return ok({ record: current, created: false })

  // The provider is called outside the transaction: no row stays locked during a network call.
  const check = await deps.identityProvider.startCheck({
    userId: actor.id,
    email: actor.email,
    firstname: actor.firstname,
    lastname: actor.lastname,
  })
  return deps.uow.run((repos) => record(deps, repos, actor, check))
}

async function record(
  deps: VerificationDeps,
  repos: VerificationRepos,
  actor: User,
  check: IdentityCheck,
): Promise<Result<StartedIdentityCheck, StartIdentityCheckError>> {
  const locked = await repos.verifications.lockByUserAndKind(actor.id, 'identity')
  // A concurrent request opened a check first: answer that one; ours is never used.
  if (locked?.status === 'PENDING') return ok({ record: locked, created: false })
  const transition = transitionVerification(statusOf(locked), 'submit', IDENTITY)
  if (transition.isErr()) return err(transition.error)
  const status = storedStatus(transition.value.to)
  if (locked) {
    const changed = await repos.verifications.update(locked.id, {
      status,
      reference: check.reference,
      redirectUrl: check.redirectUrl,
      reviewedBy: null,
      at: deps.clock.now(),
    })
    return ok({ record: changed, created: true })
  }
  const inserted = await repos.verifications.insert({
    userId: actor.id,
    kind: 'identity',
    status,
    reference: check.reference,
    redirectUrl: check.redirectUrl,
    documentFileId: null,
  })
  if (inserted) return ok({ record: inserted, created: true })
  const winner = await repos.verifications.lockByUserAndKind(actor.id, 'identity')
  if (!winner) throw new Error('identity verification vanished between insert and read')
  return ok({ record: winner, created: false })
}
