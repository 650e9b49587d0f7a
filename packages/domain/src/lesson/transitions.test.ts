import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { applyLessonCommand, arbLessonCommand, arbLessonState } from '@tutoring/testkit'
import { LESSON_TRANSITIONS, transitionLesson } from './transitions'

const H = 3_600_000
const now = new Date('2026-06-01T09:00:00Z')
const at = (hoursFromNow: number) => new Date(now.getTime() + hoursFromNow * H)
const proposal = (originalStartInHours: number) => ({
  now,
  originalStart: at(originalStartInHours),
  proposedStart: at(100),
  proposedFinish: at(101.5),
})

describe('lesson state machine', () => {
  it('creates a lesson ACTIVE', () => {
    expect(transitionLesson('NEW', 'create', {})._unsafeUnwrap()).toEqual({ to: 'ACTIVE', effects: [] })
  })

  it('moves ACTIVE to RESCHEDULE on a proposal 72 hours or more before the original start, with times and an email', () => {
    expect(transitionLesson('ACTIVE', 'propose_reschedule', proposal(72))._unsafeUnwrap()).toEqual({
      to: 'RESCHEDULE',
      effects: [
        { type: 'SetSuggestedTimes', start: at(100), finish: at(101.5), expiresAt: at(48) },
        { type: 'QueueEmail', template: 'lesson_reschedule', to: 'counterparty' },
      ],
    })
  })

  it('rejects a reschedule less than 72 hours before the start', () => {
    expect(transitionLesson('ACTIVE', 'propose_reschedule', proposal(71.99))._unsafeUnwrapErr()).toEqual({
      type: 'RescheduleNoticeTooShort',
      requiredHours: 72,
      hoursBeforeStart: 71.98,
    })
  })

  it('rejects proposed times that finish before they start, or start in the past', () => {
    const backwards = { ...proposal(80), proposedFinish: at(99) }
    expect(transitionLesson('ACTIVE', 'propose_reschedule', backwards)._unsafeUnwrapErr()).toMatchObject({
      type: 'ValidationFailed',
      errors: { suggested_finish: ['must be after suggested_start'] },
    })
    const past = { ...proposal(80), proposedStart: at(-1), proposedFinish: at(1) }
    expect(transitionLesson('ACTIVE', 'propose_reschedule', past)._unsafeUnwrapErr()).toMatchObject({
      errors: { suggested_start: ['must be in the future'] },
    })
  })

  it('accepts a proposal of another length than the original', () => {
    const longer = { ...proposal(80), proposedFinish: at(103) }
    expect(transitionLesson('ACTIVE', 'propose_reschedule', longer).isOk()).toBe(true)
  })

  it('refuses a second proposal while one is pending', () => {
    expect(transitionLesson('RESCHEDULE', 'propose_reschedule', proposal(80))._unsafeUnwrapErr()).toEqual({
      type: 'InvalidStateTransition',
      machine: 'lesson',
      from: 'RESCHEDULE',
      trigger: 'propose_reschedule',
    })
  })

  it('moves RESCHEDULE back to ACTIVE on approval, applying the suggested times and emailing both parties', () => {
    expect(transitionLesson('RESCHEDULE', 'approve', { now, expiresAt: at(1) })._unsafeUnwrap()).toEqual({
      to: 'ACTIVE',
      effects: [{ type: 'ApplySuggestedTimes' }, { type: 'QueueEmail', template: 'lesson_booked', to: 'participants' }],
    })
  })

  it('refuses to approve a proposal past its expiry even before the worker expired it', () => {
    expect(transitionLesson('RESCHEDULE', 'approve', { now, expiresAt: now })._unsafeUnwrapErr().type).toBe(
      'InvalidStateTransition',
    )
  })

  it('cancels on a declined proposal with a full refund', () => {
    expect(transitionLesson('RESCHEDULE', 'decline', {})._unsafeUnwrap()).toEqual({
      to: 'CANCELLED',
      effects: [
        { type: 'ClearSuggestedTimes' },
        { type: 'RefundBooking', basis: 'full' },
        { type: 'QueueEmail', template: 'lesson_cancelled', to: 'participants' },
      ],
    })
  })

  it('cancels an expired proposal with a full refund, but not before its expiry', () => {
    expect(transitionLesson('RESCHEDULE', 'expire', { now, expiresAt: now })._unsafeUnwrap().effects).toContainEqual({
      type: 'RefundBooking',
      basis: 'full',
    })
    expect(transitionLesson('RESCHEDULE', 'expire', { now, expiresAt: at(0.01) })._unsafeUnwrapErr()).toEqual({
      type: 'ProposalNotExpired',
      expiresAt: at(0.01),
    })
  })

  it('cancels an ACTIVE lesson with a refund by policy and an email', () => {
    expect(transitionLesson('ACTIVE', 'cancel', {})._unsafeUnwrap()).toEqual({
      to: 'CANCELLED',
      effects: [
        { type: 'RefundBooking', basis: 'policy' },
        { type: 'QueueEmail', template: 'lesson_cancelled', to: 'participants' },
      ],
    })
  })

  it('cancels a lesson with a pending proposal the same way, dropping the proposal', () => {
    const result = transitionLesson('RESCHEDULE', 'cancel', {})._unsafeUnwrap()
    expect(result.to).toBe('CANCELLED')
    expect(result.effects).toEqual([
      { type: 'ClearSuggestedTimes' },
      { type: 'RefundBooking', basis: 'policy' },
      { type: 'QueueEmail', template: 'lesson_cancelled', to: 'participants' },
    ])
  })

  it('cancels the lesson of an unpaid booking whose hold lapsed, quietly', () => {
    expect(transitionLesson('ACTIVE', 'expire_hold', {})._unsafeUnwrap()).toEqual({ to: 'CANCELLED', effects: [] })
    expect(transitionLesson('RESCHEDULE', 'expire_hold', {})._unsafeUnwrap()).toEqual({
      to: 'CANCELLED',
      effects: [{ type: 'ClearSuggestedTimes' }],
    })
  })

  it('has no row out of CANCELLED and none into NEW', () => {
    expect(LESSON_TRANSITIONS.filter((row) => row.from === 'CANCELLED')).toEqual([])
    expect(LESSON_TRANSITIONS.map((row) => row.to)).not.toContain('NEW')
  })

  it('never leaves CANCELLED, whatever the trigger and its context', () => {
    fc.assert(
      fc.property(arbLessonCommand(), (command) => {
        expect(applyLessonCommand('CANCELLED', command)._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
      }),
      { numRuns: 1000 },
    )
  })

  it('once CANCELLED, stays CANCELLED through any sequence of triggers', () => {
    fc.assert(
      fc.property(arbLessonState(), fc.array(arbLessonCommand(), { maxLength: 12 }), (start, commands) => {
        let state = start
        let cancelled = start === 'CANCELLED'
        for (const command of commands) {
          const result = applyLessonCommand(state, command)
          if (result.isOk()) state = result.value.to
          if (cancelled) expect(state).toBe('CANCELLED')
          cancelled ||= state === 'CANCELLED'
        }
      }),
      { numRuns: 1000 },
    )
  })

  it('answers every trigger without a row with a typed error, never a silent no-op', () => {
    fc.assert(
      fc.property(arbLessonState(), arbLessonCommand(), (state, command) => {
        const hasRow = LESSON_TRANSITIONS.some((row) => row.from === state && row.trigger === command.trigger)
        const result = applyLessonCommand(state, command)
        if (!hasRow) expect(result._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
      }),
      { numRuns: 1000 },
    )
  })
})
