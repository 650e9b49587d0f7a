import { describe, expect, it } from 'vitest'
import { isProposalExpired, proposalExpiresAt } from './proposal'
import { lessonStateOf, LESSON_STATES } from './lesson-state'

describe('reschedule proposals', () => {
  it('expire 48 hours after they are made', () => {
    const proposedAt = new Date('2026-06-01T09:00:00Z')
    expect(proposalExpiresAt(proposedAt, new Date('2026-06-10T09:00:00Z'))).toEqual(new Date('2026-06-03T09:00:00Z'))
  })

  it('expire at the original start when that comes first', () => {
    const proposedAt = new Date('2026-06-01T09:00:00Z')
    const start = new Date('2026-06-02T09:00:00Z')
    expect(proposalExpiresAt(proposedAt, start)).toEqual(start)
  })

  it('are expired from the instant of expiry', () => {
    const at = new Date('2026-06-03T09:00:00Z')
    expect(isProposalExpired(at, at)).toBe(true)
    expect(isProposalExpired(at, new Date(at.getTime() - 1))).toBe(false)
  })
})

describe('lesson state values', () => {
  it('are those of SPEC.md', () => {
    expect(LESSON_STATES).toEqual({ CANCELLED: 0, ACTIVE: 1, RESCHEDULE: 2 })
    expect(lessonStateOf(2)).toBe('RESCHEDULE')
    expect(lessonStateOf(7)).toBeUndefined()
  })
})
