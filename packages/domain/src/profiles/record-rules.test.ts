import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ROLE_IDS, actsFor, type RoleId } from '../shared'
import { visible } from './owned-records'
import { checkEducation, checkProfession } from './record-rules'

const roles = fc.constantFrom<RoleId>(ROLE_IDS.student, ROLE_IDS.parent, ROLE_IDS.tutor, ROLE_IDS.internal)

describe('who may act on personal records', () => {
  it('lets the owner and internal staff act, and nobody else', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), roles, (actorId, ownerId, roleId) => {
        expect(actsFor({ id: actorId, roleId }, ownerId)).toBe(actorId === ownerId || roleId === ROLE_IDS.internal)
      }),
    )
  })

  it("answers NotFound for another user's record, the same as for no record", () => {
    const actor = { id: 1, roleId: ROLE_IDS.parent }
    expect(visible({ userId: 2 }, actor, 'child')._unsafeUnwrapErr()).toEqual(visible(undefined, actor, 'child')._unsafeUnwrapErr())
    expect(visible({ userId: 1 }, actor, 'child').isOk()).toBe(true)
  })
})

describe('record dates', () => {
  it('accepts an education that ends in or after its start year, or has not ended', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2100 }), fc.option(fc.integer({ min: 1900, max: 2100 })), (startYear, endYear) => {
        const problems = checkEducation({ institution: 'I', qualification: 'Q', subject: null, startYear, endYear })
        expect(Object.keys(problems)).toEqual(endYear !== null && endYear < startYear ? ['end_year'] : [])
      }),
    )
  })

  it('accepts a profession that ends on or after its start day', () => {
    const job = (startDate: string, endDate: string | null) =>
      checkProfession({ title: 'T', organisation: null, startDate, endDate, description: null })
    expect(job('2020-01-31', '2020-01-31')).toEqual({})
    expect(job('2020-01-31', null)).toEqual({})
    expect(job('2020-01-31', '2020-01-30')).toEqual({ end_date: ['must not be before start_date'] })
    expect(job('2019-12-31', '2020-01-01')).toEqual({})
  })
})
