export type SubjectGroup = 'ACADEMIC' | 'PROFESSIONAL' | 'CUSTOM'
export const SUBJECT_GROUPS: readonly SubjectGroup[] = ['ACADEMIC', 'PROFESSIONAL', 'CUSTOM']

export type Subject = { id: number; title: string; group: SubjectGroup; subjectLevelIds: number[] }
export type SubjectLevel = { id: number; title: string }
export type ExamBoard = { id: number; title: string }
export type Country = { id: number; code: string; name: string }
export type Language = { id: number; code: string; name: string }
export type LessonLocation = { id: 1 | 2 | 3; name: string; slug: string; title: string }
export type CancellationPolicyTier = { id: number; hoursBeforeStart: number; refundPercent: number }
export type LessonPriceSettings = {
  minHourlyRatePence: number
  maxHourlyRatePence: number
  defaultHourlyRatePence: number
}
export type ServiceNotice = {
  id: number
  title: string
  message: string
  severity: 'info' | 'warning' | 'critical'
  startsAt: Date
  endsAt: Date | null
}

/** Reference data, read-only for the API. */
export interface CatalogRepository {
  subjects(filter: { subjectLevelId?: number }): Promise<Subject[]>
  subjectLevels(filter: { subjectId?: number }): Promise<SubjectLevel[]>
  examBoards(): Promise<ExamBoard[]>
  countries(): Promise<Country[]>
  languages(): Promise<Language[]>
  lessonLocations(): Promise<LessonLocation[]>
  cancellationPolicy(): Promise<CancellationPolicyTier[]>
  lessonPriceSettings(): Promise<LessonPriceSettings>
  activeServiceNotices(now: Date): Promise<ServiceNotice[]>
}

export type CatalogDeps = { catalog: CatalogRepository }
