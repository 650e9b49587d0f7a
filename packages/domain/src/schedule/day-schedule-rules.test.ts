import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatClockTime, formatTimeOfDay, parseClockTime } from './clock-time'
import type { DaySchedule, DayScheduleDraft } from './day-schedule'
import { checkDayScheduleDraft, checkScheduleFilters, normaliseDayScheduleDraft, overlappingPairs, windowsOverlap } from './day-schedule-rules'

const draft = (overrides: Partial<DayScheduleDraft> = {}): DayScheduleDraft => ({
  day: 'MONDAY',
  slots: [{ from: '09:00', to: '12:00' }],
  lessonTypes: ['online'],
  bufferMinutes: 15,
  subjectId: null,
  subjectLevelId: null,
  examBoardId: null,
  ...overrides,
})
const entry = (id: number, overrides: Partial<DayScheduleDraft> = {}): DaySchedule => ({ id, tutorId: 1, ...draft(overrides) })

describe('clock times', () => {
  it('reads HH:MM from 00:00 to 24:00 and nothing else', () => {
    expect(parseClockTime('00:00')).toBe(0)
    expect(parseClockTime('09:15')).toBe(555)
    expect(parseClockTime('24:00')).toBe(1440)
    for (const bad of ['24:15', '9:00', '09:60', '25:00', '0900', '09:00:00', '']) expect(parseClockTime(bad)).toBeUndefined()
  })
  it('formats what it reads', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1440 }), (m) => parseClockTime(formatClockTime(m)) === m))
  })
  it('formats a time of day modulo a day, as a slot ending past midnight reads', () => {
    expect(formatTimeOfDay(1440 + 75)).toBe('01:15')
    expect(formatTimeOfDay(-15)).toBe('23:45')
    expect(formatTimeOfDay(1440)).toBe('00:00')
  })
})

describe('overlap detection', () => {
  it('treats windows as half-open: touching windows do not overlap', () => {
    expect(windowsOverlap({ from: 540, to: 720 }, { from: 720, to: 900 })).toBe(false)
    expect(windowsOverlap({ from: 540, to: 720 }, { from: 705, to: 900 })).toBe(true)
    expect(windowsOverlap({ from: 540, to: 720 }, { from: 600, to: 660 })).toBe(true)
  })
  it('is symmetric and finds every overlapping pair once', () => {
    const window = fc
      .tuple(fc.integer({ min: 0, max: 95 }), fc.integer({ min: 1, max: 96 }))
      .filter(([a, b]) => a < b)
      .map(([a, b]) => ({ from: a * 15, to: b * 15 }))
    fc.assert(
      fc.property(fc.array(window, { maxLength: 6 }), (windows) => {
        const pairs = overlappingPairs(windows)
        for (const [i, j] of pairs) expect(windowsOverlap(windows[j]!, windows[i]!)).toBe(true)
        const expected = windows.flatMap((a, i) => windows.flatMap((b, j) => (i < j && a.from < b.to && b.from < a.to ? [[i, j]] : [])))
        expect(pairs).toEqual(expected)
      }),
    )
  })
})

describe('a schedule entry', () => {
  it('accepts windows on the 15-minute grid that do not overlap', () => {
    const slots = [
      { from: '13:00', to: '17:45' },
      { from: '09:00', to: '13:00' },
      { from: '20:15', to: '24:00' },
    ]
    expect(checkDayScheduleDraft(draft({ slots }), [])).toEqual({})
  })

  it('refuses a window off the grid, at either end', () => {
    expect(checkDayScheduleDraft(draft({ slots: [{ from: '09:10', to: '12:05' }] }), [])).toEqual({
      'slots.0.from': ['must be on the 15-minute grid (:00, :15, :30, :45)'],
      'slots.0.to': ['must be on the 15-minute grid (:00, :15, :30, :45)'],
    })
  })

  it('refuses a window that ends before or when it starts, and one starting at 24:00', () => {
    expect(checkDayScheduleDraft(draft({ slots: [{ from: '12:00', to: '09:00' }] }), [])).toEqual({ 'slots.0.to': ['must be after from'] })
    expect(checkDayScheduleDraft(draft({ slots: [{ from: '12:00', to: '12:00' }] }), [])).toEqual({ 'slots.0.to': ['must be after from'] })
    expect(checkDayScheduleDraft(draft({ slots: [{ from: '24:00', to: '24:00' }] }), [])['slots.0.from']).toEqual(['must be before 24:00'])
  })

  it('refuses windows that overlap inside the entry, naming the later one', () => {
    const slots = [
      { from: '09:00', to: '12:00' },
      { from: '11:00', to: '13:00' },
    ]
    expect(checkDayScheduleDraft(draft({ slots }), [])).toEqual({ 'slots.1': ['overlaps 09:00-12:00 of this entry'] })
  })

  it("refuses a window that overlaps another entry of the same day, whatever that entry's filters", () => {
    const others = [entry(7, { slots: [{ from: '11:30', to: '14:00' }], subjectId: 3 }), entry(8, { day: 'TUESDAY', slots: [{ from: '09:00', to: '12:00' }] })]
    expect(checkDayScheduleDraft(draft(), others)).toEqual({ 'slots.0': ['overlaps 11:30-14:00 of your other MONDAY schedule'] })
  })

  it('allows the same hours on another day', () => {
    expect(checkDayScheduleDraft(draft({ day: 'SUNDAY' }), [entry(7)])).toEqual({})
  })

  it('needs a window, a lesson type, distinct lesson types and a buffer in steps of 5 up to 120', () => {
    expect(checkDayScheduleDraft(draft({ slots: [], lessonTypes: [], bufferMinutes: 7 }), [])).toEqual({
      slots: ['needs at least one time window'],
      lesson_types: ['needs at least one lesson type'],
      buffer_minutes: ['must be a multiple of 5 from 0 to 120'],
    })
    expect(checkDayScheduleDraft(draft({ lessonTypes: ['online', 'online'], bufferMinutes: 125 }), [])).toEqual({
      lesson_types: ['must not repeat a lesson type'],
      buffer_minutes: ['must be a multiple of 5 from 0 to 120'],
    })
    expect(checkDayScheduleDraft(draft({ bufferMinutes: 0 }), [])).toEqual({})
    expect(checkDayScheduleDraft(draft({ bufferMinutes: 120 }), [])).toEqual({})
  })

  it('stores lesson types in id order and windows by start', () => {
    const normal = normaliseDayScheduleDraft(
      draft({ lessonTypes: ['online', 'tutors_home'], slots: [{ from: '13:00', to: '14:00' }, { from: '09:00', to: '10:00' }] }),
    )
    expect(normal.lessonTypes).toEqual(['tutors_home', 'online'])
    expect(normal.slots.map((s) => s.from)).toEqual(['09:00', '13:00'])
  })
})

describe('schedule filters', () => {
  const reference = {
    subjects: [{ id: 1, title: 'Mathematics', group: 'ACADEMIC' as const, subjectLevelIds: [1, 2] }],
    subjectLevelIds: [1, 2, 3],
    examBoardIds: [5],
  }
  it('accepts no filters, or filters that exist and fit together', () => {
    expect(checkScheduleFilters(draft(), reference)).toEqual({})
    expect(checkScheduleFilters(draft({ subjectId: 1, subjectLevelId: 2, examBoardId: 5 }), reference)).toEqual({})
    expect(checkScheduleFilters(draft({ subjectLevelId: 3 }), reference)).toEqual({})
  })
  it('refuses unknown ids and a level that is not of the subject', () => {
    expect(checkScheduleFilters(draft({ subjectId: 9, subjectLevelId: 9, examBoardId: 9 }), reference)).toEqual({
      subject_id: ['is not a known subject'],
      subject_level_id: ['is not a known subject level'],
      exam_board_id: ['is not a known exam board'],
    })
    expect(checkScheduleFilters(draft({ subjectId: 1, subjectLevelId: 3 }), reference)).toEqual({
      subject_level_id: ['is not a level of Mathematics'],
    })
  })
})
