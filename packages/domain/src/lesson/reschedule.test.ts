import { describe, expect, it } from 'vitest'
import type { Actor } from '../shared'
import { approveReschedule, proposeReschedule } from './reschedule'

const parties = { tutorId: 10, studentId: 20, parentId: null }
const tutor: Actor = { id: 10, roleId: 3 }
const student: Actor = { id: 20, roleId: 1 }
const now = new Date('2026-06-01T09:00:00Z')
const later = (hours: number) => new Date(now.getTime() + hours * 3_600_000)

describe('proposing a reschedule', () => {
  it('records who proposed and moves the lesson to RESCHEDULE', () => {
    const step = proposeReschedule({
      actor: tutor,
      parties,
      lesson: { state: 'ACTIVE', start: later(96) },
      proposedStart: later(120),
      proposedFinish: later(121),
      now,
    })._unsafeUnwrap()
    expect(step.side).toBe('tutor')
    expect(step.transition.to).toBe('RESCHEDULE')
  })

  it('refuses strangers before the notice rule', () => {
    const result = proposeReschedule({
      actor: { id: 5, roleId: 1 },
      parties,
      lesson: { state: 'ACTIVE', start: later(10) },
      proposedStart: later(120),
      proposedFinish: later(121),
      now,
    })
    expect(result._unsafeUnwrapErr().type).toBe('Forbidden')
  })

  it('rejects a reschedule less than 72 hours before the original start', () => {
    const result = proposeReschedule({
      actor: student,
      parties,
      lesson: { state: 'ACTIVE', start: later(71) },
      proposedStart: later(120),
      proposedFinish: later(121),
      now,
    })
    expect(result._unsafeUnwrapErr().type).toBe('RescheduleNoticeTooShort')
  })
})

describe('approving a reschedule', () => {
  const pending = { state: 'RESCHEDULE' as const, proposedBy: 'tutor' as const, proposalExpiresAt: later(48) }

  it('lets the other party approve before expiry', () => {
    const step = approveReschedule({ actor: student, parties, lesson: pending, now })._unsafeUnwrap()
    expect(step.transition.to).toBe('ACTIVE')
    expect(step.transition.effects).toContainEqual({ type: 'ApplySuggestedTimes' })
  })

  it('refuses the proposer', () => {
    expect(approveReschedule({ actor: tutor, parties, lesson: pending, now })._unsafeUnwrapErr().type).toBe('Forbidden')
  })

  it('answers an approval of an ACTIVE lesson with an invalid transition, even from a stranger', () => {
    const active = { state: 'ACTIVE' as const, proposedBy: null, proposalExpiresAt: null }
    expect(approveReschedule({ actor: { id: 5, roleId: 1 }, parties, lesson: active, now })._unsafeUnwrapErr().type).toBe(
      'InvalidStateTransition',
    )
  })

  it('refuses an approval after expiry', () => {
    expect(approveReschedule({ actor: student, parties, lesson: pending, now: later(48) })._unsafeUnwrapErr().type).toBe(
      'InvalidStateTransition',
    )
  })
})
