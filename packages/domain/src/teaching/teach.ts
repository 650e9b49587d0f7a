import type { Pence } from '../shared'

/** A subject a tutor teaches, at some levels and for some exam boards, at an hourly rate. */
export type Teach = {
  id: number
  tutorId: number
  subjectId: number
  subjectLevelIds: number[]
  examBoardIds: number[]
  hourlyRatePence: Pence
  enabled: boolean
  createdAt: Date
}

export type TeachDraft = Pick<Teach, 'subjectId' | 'subjectLevelIds' | 'examBoardIds' | 'hourlyRatePence' | 'enabled'>

export type Titled = { id: number; title: string }

/** A teach as the public sees it: with the titles a client shows. */
export type AvailableTeach = Teach & { subject: Titled; subjectLevels: Titled[]; examBoards: Titled[] }

export type AvailableTeachFilter = {
  tutorId?: number
  subjectId?: number
  subjectLevelId?: number
  examBoardId?: number
}
