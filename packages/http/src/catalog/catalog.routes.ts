import { z } from '@hono/zod-openapi'
import {
  getLessonPriceSettings,
  listActiveServiceNotices,
  listCancellationPolicy,
  listCountries,
  listExamBoards,
  listLanguages,
  listLessonLocations,
  listSubjectGroups,
  listSubjectLevels,
  listSubjects,
  type Subject,
} from '@tutoring/domain/catalog'
import { CURRENCY, formatPence } from '@tutoring/domain/shared'
import { authApi } from '../platform/auth'
import { listOf, one, paginate, paginationQuery } from '../platform/pagination'
import { pageKey, referenceAnswer, referencePage } from '../platform/reference-answers'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import {
  CancellationPolicySchema,
  CountrySchema,
  ExamBoardSchema,
  LanguageSchema,
  LessonLocationSchema,
  LessonPriceSchema,
  ServiceNoticeSchema,
  SubjectGroupSchema,
  SubjectLevelSchema,
  SubjectSchema,
} from './catalog.schemas'

const presentSubject = (s: Subject) => ({ id: s.id, title: s.title, group: s.group, subject_level_ids: s.subjectLevelIds })
const tags = ['Reference data']
const pageQuery = z.object(paginationQuery)

export function referenceRoutes(app: App, services: Services): void {
  const catalog = services.reference

  mount(
    app,
    ['/api/subjects'],
    {
      method: 'get',
      tags,
      summary: 'All subjects',
      request: { query: pageQuery },
      responses: { 200: jsonContent(listOf(SubjectSchema), 'Subjects'), 422: commonProblems[422] },
    },
    async (c) => {
      const subjects = await unwrap(listSubjects(catalog))
      const page = c.req.valid('query')
      return c.json(referenceAnswer(subjects, `subjects ${pageKey(page)}`, () => paginate(subjects.map(presentSubject), page)), 200)
    },
  )

  mount(
    app,
    ['/api/v1/subjects'],
    {
      method: 'get',
      tags,
      summary: 'Subjects, optionally only those taught at one level',
      security: bearer,
      middleware: [authApi] as const,
      request: {
        query: pageQuery.extend({ subject_level_id: z.coerce.number().int().positive().optional() }),
      },
      responses: { 200: jsonContent(listOf(SubjectSchema), 'Subjects'), ...commonProblems },
    },
    async (c) => {
      const { subject_level_id, ...page } = c.req.valid('query')
      const subjects = await unwrap(listSubjects(catalog, { subjectLevelId: subject_level_id }))
      return c.json(referenceAnswer(subjects, `subjects ${pageKey(page)}`, () => paginate(subjects.map(presentSubject), page)), 200)
    },
  )

  mount(
    app,
    ['/api/subject-groups'],
    {
      method: 'get',
      tags,
      summary: 'Subjects grouped by ACADEMIC, PROFESSIONAL and CUSTOM',
      request: { query: pageQuery },
      responses: { 200: jsonContent(listOf(SubjectGroupSchema), 'Groups'), 422: commonProblems[422] },
    },
    async (c) => {
      const groups = await unwrap(listSubjectGroups(catalog))
      const presented = groups.map((g) => ({ group: g.group, subjects: g.subjects.map(presentSubject) }))
      return c.json(paginate(presented, c.req.valid('query')), 200)
    },
  )

  mount(
    app,
    ['/api/v1/subject-levels'],
    {
      method: 'get',
      tags,
      summary: 'Subject levels, optionally of one subject',
      security: bearer,
      middleware: [authApi] as const,
      request: { query: pageQuery.extend({ subject_id: z.coerce.number().int().positive().optional() }) },
      responses: { 200: jsonContent(listOf(SubjectLevelSchema), 'Levels'), ...commonProblems },
    },
    async (c) => {
      const { subject_id, ...page } = c.req.valid('query')
      const levels = await unwrap(listSubjectLevels(catalog, { subjectId: subject_id }))
      return c.json(referencePage(levels, page), 200)
    },
  )

  mount(
    app,
    ['/api/v1/exam-boards'],
    {
      method: 'get',
      tags,
      summary: 'Exam boards',
      security: bearer,
      middleware: [authApi] as const,
      request: { query: pageQuery },
      responses: { 200: jsonContent(listOf(ExamBoardSchema), 'Exam boards'), ...commonProblems },
    },
    async (c) => c.json(referencePage(await unwrap(listExamBoards(catalog)), c.req.valid('query')), 200),
  )

  mount(
    app,
    ['/api/countries'],
    {
      method: 'get',
      tags,
      summary: 'Countries (ISO 3166-1 alpha-2)',
      request: { query: pageQuery },
      responses: { 200: jsonContent(listOf(CountrySchema), 'Countries'), 422: commonProblems[422] },
    },
    async (c) => c.json(referencePage(await unwrap(listCountries(catalog)), c.req.valid('query')), 200),
  )

  mount(
    app,
    ['/api/v1/languages'],
    {
      method: 'get',
      tags,
      summary: 'Languages a user can speak',
      security: bearer,
      middleware: [authApi] as const,
      request: { query: pageQuery },
      responses: { 200: jsonContent(listOf(LanguageSchema), 'Languages'), ...commonProblems },
    },
    async (c) => c.json(referencePage(await unwrap(listLanguages(catalog)), c.req.valid('query')), 200),
  )

  const lessonLocations = {
    method: 'get',
    tags,
    summary: 'Lesson types: TUTORS_HOME (1), STUDENTS_HOME (2), ONLINE (3)',
    request: { query: pageQuery },
    responses: { 200: jsonContent(listOf(LessonLocationSchema), 'Lesson locations'), ...commonProblems },
  } as const
  mount(app, ['/api/lesson-locations'], lessonLocations, async (c) =>
    c.json(referencePage(await unwrap(listLessonLocations(catalog)), c.req.valid('query')), 200),
  )
  mount(app, ['/api/v1/lesson-locations'], { ...lessonLocations, security: bearer, middleware: [authApi] as const }, async (c) =>
    c.json(referencePage(await unwrap(listLessonLocations(catalog)), c.req.valid('query')), 200),
  )

  mount(
    app,
    ['/api/cancellation-policies'],
    {
      method: 'get',
      tags,
      summary: 'Refund tiers by notice before the lesson start',
      request: { query: pageQuery },
      responses: { 200: jsonContent(listOf(CancellationPolicySchema), 'Tiers'), 422: commonProblems[422] },
    },
    async (c) => {
      const tiers = await unwrap(listCancellationPolicy(catalog))
      const page = c.req.valid('query')
      const present = () => tiers.map((t) => ({ id: t.id, hours_before_start: t.hoursBeforeStart, refund_percent: t.refundPercent }))
      return c.json(referenceAnswer(tiers, `tiers ${pageKey(page)}`, () => paginate(present(), page)), 200)
    },
  )

  mount(
    app,
    ['/api/lesson-price'],
    {
      method: 'get',
      tags,
      summary: 'Hourly rate bounds and the service fee',
      responses: { 200: jsonContent(one(LessonPriceSchema), 'Lesson price settings') },
    },
    async (c) => {
      const settings = await unwrap(getLessonPriceSettings(catalog))
      return c.json(
        referenceAnswer(settings, 'lesson price', () => ({
          data: {
            sign: CURRENCY.sign,
            currency_code: CURRENCY.code,
            display_format: CURRENCY.displayFormat,
            min_hourly_rate: formatPence(settings.minHourlyRatePence),
            max_hourly_rate: formatPence(settings.maxHourlyRatePence),
            default_hourly_rate: formatPence(settings.defaultHourlyRatePence),
            service_fee_percent: services.infra.config.SERVICE_FEE_PERCENT,
          },
        })),
        200,
      )
    },
  )

  mount(
    app,
    ['/api/service-notifications'],
    {
      method: 'get',
      tags,
      summary: 'Service notices in force now',
      request: { query: pageQuery },
      responses: { 200: jsonContent(listOf(ServiceNoticeSchema), 'Notices'), 422: commonProblems[422] },
    },
    async (c) => {
      const notices = await unwrap(listActiveServiceNotices(catalog, services.infra.clock.now()))
      const presented = notices.map((n) => ({
        id: n.id,
        title: n.title,
        message: n.message,
        severity: n.severity,
        starts_at: n.startsAt.toISOString(),
        ends_at: n.endsAt?.toISOString() ?? null,
      }))
      return c.json(paginate(presented, c.req.valid('query')), 200)
    },
  )
}
