import { z } from '@hono/zod-openapi'
import { getPublicTutorProfile, getPublicUser, getTutorDetails, getTutorStatus } from '@tutoring/domain/tutors'
import { authApi, currentUser, internalOnly } from '../platform/auth'
import { mediaUrls } from '../platform/media-urls'
import { one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { idParam } from '../teaching'
import {
  PublicTutorProfileSchema,
  PublicTutorUserSchema,
  PublicUserSchema,
  TutorDetailsSchema,
  TutorStatusSchema,
  presentAnyPublicUser,
  presentPublicTutorProfile,
  presentTutorDetails,
  presentTutorStatus,
} from './tutors.schemas'

const tags = ['Tutors']

export function tutorRoutes(app: App, services: Services): void {
  const deps = services.tutors
  const urls = mediaUrls(services.infra.baseUrl)

  mount(
    app,
    ['/api/v1/tutors/status'],
    {
      method: 'get',
      tags,
      summary: "The caller's way to search: what is missing, and each verification",
      description:
        "Tutor only (403 otherwise). Search's own eligibility rules (SPEC 'A tutor appears in results only when'), asked for today in London with no date, lesson type or place: eligible is true when nothing keeps the tutor out of search, reasons lists what does. Travel distance and the 14-day window depend on a search and are never reasons here. A verification with nothing submitted is NONE.",
      security: bearer,
      middleware: [authApi] as const,
      responses: { 200: jsonContent(one(TutorStatusSchema), 'Status'), ...commonProblems },
    },
    async (c) => c.json({ data: presentTutorStatus(await unwrap(getTutorStatus(deps, currentUser(c)))) }, 200),
  )

  mount(
    app,
    ['/api/tutors/{id}/profile'],
    {
      method: 'get',
      tags,
      summary: 'Public tutor profile',
      description:
        'Public (CONTRACT §14). 404 unless the id is a live tutor. Shows the lastname abbreviated, the location as postcode district, coordinates to two places and travel distance, which verifications passed, the tutor\'s education, professions, languages and social links, the rating and review count stored with each review, and hours taught.',
      request: { params: idParam },
      responses: { 200: jsonContent(one(PublicTutorProfileSchema), 'Profile'), 404: commonProblems[404], 429: commonProblems[429] },
    },
    async (c) => c.json({ data: presentPublicTutorProfile(await unwrap(getPublicTutorProfile(deps, c.req.valid('param').id)), urls) }, 200),
  )

  mount(
    app,
    ['/api/tutors/{id}'],
    {
      method: 'get',
      tags,
      summary: 'Everything about a tutor (internal staff)',
      description: 'auth:api + internal (403 for other roles). 404 unless the id is a live tutor.',
      security: bearer,
      middleware: [internalOnly] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(one(TutorDetailsSchema), 'Tutor'), ...commonProblems },
    },
    async (c) => c.json({ data: presentTutorDetails(await unwrap(getTutorDetails(deps, currentUser(c), c.req.valid('param').id)), urls) }, 200),
  )

  // A username here where PUT (accounts' users routes) takes an id: one path template needs one parameter name.
  mount(
    app,
    ['/api/users/{user}'],
    {
      method: 'get',
      tags: ['Users'],
      summary: 'Public user by username',
      description:
        'Public. A tutor answers the public tutor profile of GET /api/tutors/{id}/profile plus role_id and role; a student or parent answers name, role and joined_at. Staff and deleted users are 404, as an unknown username. A tutor who hides their profile is answered all the same: visibility gates search only, as on GET /api/tutors/{id}/profile.',
      request: { params: z.object({ user: z.string().min(1).max(64).openapi({ param: { name: 'user', in: 'path' }, description: 'The username.' }) }) },
      responses: { 200: jsonContent(z.object({ data: z.union([PublicTutorUserSchema, PublicUserSchema]) }), 'User'), 404: commonProblems[404] },
    },
    async (c) =>
      c.json({ data: presentAnyPublicUser(await unwrap(getPublicUser({ accounts: services.accounts, tutors: deps }, c.req.valid('param').user)), urls) }, 200),
  )
}
