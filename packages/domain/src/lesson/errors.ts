export type RescheduleNoticeTooShort = {
  type: 'RescheduleNoticeTooShort'
  requiredHours: number
  hoursBeforeStart: number
}
export type LessonNotFinished = { type: 'LessonNotFinished'; finish: Date }
/** Only the expiry worker can meet it: expiring a proposal before its time. */
export type ProposalNotExpired = { type: 'ProposalNotExpired'; expiresAt: Date }

export const rescheduleNoticeTooShort = (requiredHours: number, hoursBeforeStart: number): RescheduleNoticeTooShort => ({
  type: 'RescheduleNoticeTooShort',
  requiredHours,
  hoursBeforeStart,
})
export const lessonNotFinished = (finish: Date): LessonNotFinished => ({ type: 'LessonNotFinished', finish })
export const proposalNotExpired = (expiresAt: Date): ProposalNotExpired => ({ type: 'ProposalNotExpired', expiresAt })
