import { z } from '@hono/zod-openapi'
import { createNote, deleteNote, getNote, listNotes, updateNote } from '@tutoring/domain/notes'
import { authApi, currentUser } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { listOf, meta, one } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { idParam, listQuery, presentNote } from '../booking'

const fileIds = z.array(z.uuid()).max(20)

const NoteBody = z
  .strictObject({
    lesson_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    text: z.string().max(10_000).trim().min(1),
    summary: z.string().max(1_000).trim().min(1),
    file_ids: fileIds.optional().openapi({ description: "Files the tutor uploaded (POST /api/files) to attach." }),
  })
  .openapi('NoteRequest')
const NotePatch = z
  .strictObject({ text: z.string().max(10_000).trim().min(1).optional(), summary: z.string().max(1_000).trim().min(1).optional(), file_ids: fileIds.optional() })
  .openapi('NoteUpdateRequest')
const NoteSchema = z
  .object({ id: z.number().int(), lesson_id: z.number().int(), author_id: z.number().int(), text: z.string(), summary: z.string(), file_ids: z.array(z.string()), created_at: z.string(), updated_at: z.string() })
  .openapi('LessonNote')

export function noteRoutes(app: App, services: Services): void {
  const deps = services.notes
  const tags = ['Notes']
  const WHO = "Notes are seen by whoever sees their lesson (staff, the tutor, the booker); to anyone else they do not exist (404). Only the tutor who wrote a note changes or deletes it (403)."

  mount(
    app,
    ['/api/v1/notes'],
    { method: 'get', tags, summary: 'Lesson notes', description: WHO, security: bearer, middleware: [authApi] as const, request: { query: listQuery }, responses: { 200: jsonContent(listOf(NoteSchema), 'Notes'), ...commonProblems } },
    async (c) => {
      const { page, per_page } = c.req.valid('query')
      const found = await unwrap(listNotes(deps, currentUser(c), { page, perPage: per_page }))
      return c.json({ data: found.items.map(presentNote), meta: meta(found.total, { page, per_page }) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/notes'],
    {
      method: 'post',
      tags,
      summary: 'Write a lesson note',
      description: `The lesson's tutor only (403 for its other parties; a lesson the caller cannot see is 422 on lesson_id). Attached files must be the tutor's own. The student (the booker) gets the lesson-summary-note email and a push notification with the booking details. ${WHO}`,
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: NoteBody } }, required: true } },
      responses: { 201: jsonContent(one(NoteSchema), 'Written'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const note = await unwrap(createNote(deps, currentUser(c), { lessonId: body.lesson_id, text: body.text, summary: body.summary, fileIds: body.file_ids ?? [] }))
      return c.json({ data: presentNote(note) }, 201)
    },
  )

  mount(
    app,
    ['/api/v1/notes/{id}'],
    { method: 'get', tags, summary: 'A lesson note', description: WHO, security: bearer, middleware: [authApi] as const, request: { params: idParam }, responses: { 200: jsonContent(one(NoteSchema), 'The note'), ...commonProblems } },
    async (c) => c.json({ data: presentNote(await unwrap(getNote(deps, currentUser(c), c.req.valid('param').id))) }, 200),
  )

  mount(
    app,
    ['/api/v1/notes/{id}'],
    {
      method: 'put',
      tags,
      summary: 'Change a lesson note',
      description: `Any of text, summary, file_ids (replacing the attachments). No new email. ${WHO}`,
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { params: idParam, body: { content: { 'application/json': { schema: NotePatch } }, required: true } },
      responses: { 200: jsonContent(one(NoteSchema), 'Changed'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const note = await unwrap(updateNote(deps, currentUser(c), { id: c.req.valid('param').id, patch: { text: body.text, summary: body.summary, fileIds: body.file_ids } }))
      return c.json({ data: presentNote(note) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/notes/{id}'],
    { method: 'delete', tags, summary: 'Delete a lesson note', description: `${WHO} The attached files stay the tutor's.`, security: bearer, middleware: [authApi] as const, request: { params: idParam }, responses: { 204: { description: 'Deleted' }, ...commonProblems } },
    async (c) => {
      await unwrap(deleteNote(deps, currentUser(c), c.req.valid('param').id))
      return c.body(null, 204)
    },
  )
}
