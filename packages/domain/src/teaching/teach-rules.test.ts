import { describe, expect, it } from 'vitest'
import type { TeachDraft } from './teach'
import { checkTeachDraft, type TeachReference } from './teach-rules'

const reference: TeachReference = {
  subjects: [
    { id: 1, title: 'Mathematics', group: 'ACADEMIC', subjectLevelIds: [1, 2, 3] },
    { id: 2, title: 'Piano', group: 'CUSTOM', subjectLevelIds: [4] },
  ],
  examBoards: [
    { id: 10, title: 'AQA' },
    { id: 11, title: 'OCR' },
  ],
  price: { minHourlyRatePence: 1000, maxHourlyRatePence: 20000, defaultHourlyRatePence: 3000 },
}
const draft = (overrides: Partial<TeachDraft> = {}): TeachDraft => ({
  subjectId: 1,
  subjectLevelIds: [2, 3],
  examBoardIds: [10],
  hourlyRatePence: 2500,
  enabled: true,
  ...overrides,
})

describe('a teach', () => {
  it('is fine with a subject, its levels, known boards and a rate within bounds (both ends included)', () => {
    expect(checkTeachDraft(draft(), reference)).toEqual({})
    expect(checkTeachDraft(draft({ hourlyRatePence: 1000, examBoardIds: [] }), reference)).toEqual({})
    expect(checkTeachDraft(draft({ hourlyRatePence: 20000 }), reference)).toEqual({})
  })
  it('refuses a rate outside the lesson-price bounds', () => {
    expect(checkTeachDraft(draft({ hourlyRatePence: 999 }), reference)).toEqual({ hourly_rate: ['must be from 10.00 to 200.00'] })
    expect(checkTeachDraft(draft({ hourlyRatePence: 20001 }), reference)).toEqual({ hourly_rate: ['must be from 10.00 to 200.00'] })
  })
  it('refuses a level that is not of the subject, naming its position', () => {
    expect(checkTeachDraft(draft({ subjectLevelIds: [2, 4] }), reference)).toEqual({ 'subject_level_ids.1': ['is not a level of Mathematics'] })
  })
  it('refuses an unknown subject, unknown boards, no levels and repeats', () => {
    expect(checkTeachDraft(draft({ subjectId: 99, subjectLevelIds: [] , examBoardIds: [12, 12] }), reference)).toEqual({
      subject_id: ['is not a known subject'],
      subject_level_ids: ['needs at least one level'],
      exam_board_ids: ['must not repeat an exam board'],
      'exam_board_ids.0': ['is not a known exam board'],
      'exam_board_ids.1': ['is not a known exam board'],
    })
    expect(checkTeachDraft(draft({ subjectLevelIds: [2, 2] }), reference)).toEqual({ subject_level_ids: ['must not repeat a level'] })
  })
})
