import { describe, expect, it } from 'vitest'
import type { Actor } from '../shared'
import { authorizeRescheduleProposal, authorizeRescheduleResponse, lessonSideOf } from './parties'

const parties = { tutorId: 10, studentId: 20, parentId: 30 }
const tutor: Actor = { id: 10, roleId: 3 }
const student: Actor = { id: 20, roleId: 1 }
const parent: Actor = { id: 30, roleId: 2 }
const stranger: Actor = { id: 99, roleId: 1 }
const staff: Actor = { id: 1, roleId: 200 }

describe('who may act on a reschedule', () => {
  it('puts the parent on the student side', () => {
    expect(lessonSideOf(parent, parties)).toBe('student')
    expect(lessonSideOf(tutor, parties)).toBe('tutor')
    expect(lessonSideOf(stranger, { ...parties, parentId: null })).toBeUndefined()
  })

  it('lets either party propose, and nobody else', () => {
    expect(authorizeRescheduleProposal(tutor, parties)._unsafeUnwrap()).toBe('tutor')
    expect(authorizeRescheduleProposal(parent, parties)._unsafeUnwrap()).toBe('student')
    expect(authorizeRescheduleProposal(stranger, parties)._unsafeUnwrapErr().type).toBe('Forbidden')
    expect(authorizeRescheduleProposal(staff, parties)._unsafeUnwrapErr().type).toBe('Forbidden')
  })

  it('lets only the other party approve or decline', () => {
    const byTutor = { state: 'RESCHEDULE' as const, proposedBy: 'tutor' as const }
    expect(authorizeRescheduleResponse({ actor: student, parties, lesson: byTutor, response: 'approve' })._unsafeUnwrap()).toBe('student')
    expect(authorizeRescheduleResponse({ actor: parent, parties, lesson: byTutor, response: 'decline' })._unsafeUnwrap()).toBe('student')
    expect(authorizeRescheduleResponse({ actor: tutor, parties, lesson: byTutor, response: 'approve' })._unsafeUnwrapErr().type).toBe('Forbidden')
    expect(authorizeRescheduleResponse({ actor: stranger, parties, lesson: byTutor, response: 'approve' })._unsafeUnwrapErr().type).toBe('Forbidden')
  })

  it('refuses a parent answering their own side\'s proposal made by the student', () => {
    const byStudent = { state: 'RESCHEDULE' as const, proposedBy: 'student' as const }
    expect(authorizeRescheduleResponse({ actor: parent, parties, lesson: byStudent, response: 'approve' })._unsafeUnwrapErr().type).toBe('Forbidden')
    expect(authorizeRescheduleResponse({ actor: tutor, parties, lesson: byStudent, response: 'approve' }).isOk()).toBe(true)
  })

  it('answers approve or decline on a lesson not in RESCHEDULE with an invalid transition, whoever asks', () => {
    for (const actor of [tutor, student, stranger, staff]) {
      for (const state of ['ACTIVE', 'CANCELLED'] as const) {
        const result = authorizeRescheduleResponse({ actor, parties, lesson: { state, proposedBy: null }, response: 'approve' })
        expect(result._unsafeUnwrapErr()).toEqual({ type: 'InvalidStateTransition', machine: 'lesson', from: state, trigger: 'approve' })
      }
    }
  })
})
