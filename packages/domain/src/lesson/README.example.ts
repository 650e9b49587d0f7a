import { LESSON_STATES, transitionLesson } from '@tutoring/domain/lesson'

// The lesson machine is a table: each call answers the next state and the effects an adapter
// must carry out, or a typed error. Nothing is stored; the caller owns the record.
const show = (step: string, result: ReturnType<typeof transitionLesson>) =>
  console.log(
    result.match(
      ({ to, effects }) => `${step}: ${to} (${LESSON_STATES[to]}) ${effects.map((effect) => effect.type).join(', ') || 'no effects'}`,
      (error) => `${step}: ${error.type}`,
    ),
  )

const originalStart = new Date('2030-01-10T09:00:00Z')
show('create', transitionLesson('NEW', 'create', {}))

// A reschedule needs 72 hours' notice before the original start.
const proposal = { originalStart, proposedStart: new Date('2030-01-11T09:00:00Z'), proposedFinish: new Date('2030-01-11T10:00:00Z') }
show('propose 2 days before', transitionLesson('ACTIVE', 'propose_reschedule', { ...proposal, now: new Date('2030-01-08T09:00:00Z') }))
const proposed = transitionLesson('ACTIVE', 'propose_reschedule', { ...proposal, now: new Date('2030-01-05T09:00:00Z') })
show('propose 5 days before', proposed)

// The proposal expires at the earlier of +48 hours and the original start; approving in time applies it.
const suggested = proposed.unwrapOr(undefined)?.effects.find((effect) => effect.type === 'SetSuggestedTimes')
if (suggested?.type === 'SetSuggestedTimes') {
  console.log(`expires: ${suggested.expiresAt.toISOString()}`)
  show('approve', transitionLesson('RESCHEDULE', 'approve', { now: new Date('2030-01-06T09:00:00Z'), expiresAt: suggested.expiresAt }))
  show('approve too late', transitionLesson('RESCHEDULE', 'approve', { now: new Date('2030-01-08T09:00:00Z'), expiresAt: suggested.expiresAt }))
}

// Cancelling refunds by the policy; a cancelled lesson has no way out.
show('cancel', transitionLesson('ACTIVE', 'cancel', {}))
show('cancel again', transitionLesson('CANCELLED', 'cancel', {}))
