import {
  addChild,
  addEducation,
  addProfession,
  listChildren,
  listEducation,
  listPersonalDetails,
  listProfessions,
  listProfiles,
  removeChild,
  removeEducation,
  removeProfession,
  updateChild,
  updateEducation,
  updatePersonalDetails,
  updateProfession,
  updateProfile,
} from '@tutoring/domain/profiles'
import { currentUser } from '../platform/auth'
import { paginate } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { mount, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { createRoute, deleteRoute, listRoute, updateRoute } from './owned-routes'
import {
  ChildBody,
  ChildPatchBody,
  ChildSchema,
  EducationBody,
  EducationPatchBody,
  EducationSchema,
  PersonalDetailsBody,
  PersonalDetailsSchema,
  ProfessionBody,
  ProfessionPatchBody,
  ProfessionSchema,
  ProfileBody,
  ProfileSchema,
  childFields,
  definedOnly,
  educationFields,
  newEducation,
  newProfession,
  presentChild,
  presentEducation,
  presentPersonalDetails,
  presentProfession,
  presentProfile,
  professionFields,
} from './profiles.schemas'

const tags = ['Profile']

/** SPEC "Users and profile (legacy, all auth:api)": personal details, profile, education, professions, children. */
export function profileRoutes(app: App, services: Services): void {
  personalDetailRoutes(app, services)
  educationRoutes(app, services)
  professionRoutes(app, services)
  childRoutes(app, services)
}

function personalDetailRoutes(app: App, services: Services): void {
  const deps = services.profiles
  const present = presentProfile(services.infra.baseUrl)

  mount(
    app,
    ['/api/v1/personal-details'],
    listRoute(tags, "The caller's personal details (one record per user)", PersonalDetailsSchema),
    async (c) => {
      const { user_id, ...page } = c.req.valid('query')
      const details = await unwrap(listPersonalDetails(deps, currentUser(c), { userId: user_id }))
      return c.json(paginate(details.map(presentPersonalDetails), page), 200)
    },
  )

  mount(
    app,
    ['/api/v1/personal-details/{id}'],
    updateRoute(
      tags,
      'Update date of birth, gender and spoken languages',
      PersonalDetailsBody,
      PersonalDetailsSchema,
      'Fires PersonalDetailUpdated: a tutor\'s date of birth is copied to the payment processor through the outbox. ' +
        '`language_ids` is where a user\'s own languages are kept (decision: SPEC lists no route of its own for them).',
    ),
    async (c) => {
      const body = c.req.valid('json')
      const patch = definedOnly({ dateOfBirth: body.date_of_birth, gender: body.gender, languageIds: body.language_ids })
      const details = await unwrap(updatePersonalDetails(deps, currentUser(c), { id: c.req.valid('param').id, patch }))
      return c.json({ data: presentPersonalDetails(details) }, 200)
    },
  )

  mount(
    app,
    ['/api/v1/profiles'],
    listRoute(tags, "The caller's profile (one per user, made at registration)", ProfileSchema),
    async (c) => {
      const { user_id, ...page } = c.req.valid('query')
      const profiles = await unwrap(listProfiles(deps, currentUser(c), { userId: user_id }))
      return c.json(paginate(profiles.map(present), page), 200)
    },
  )

  mount(
    app,
    ['/api/v1/profiles/{id}'],
    updateRoute(tags, 'Update bio, teacher reference number, tutoring experience, visibility', ProfileBody, ProfileSchema),
    async (c) => {
      const body = c.req.valid('json')
      const patch = definedOnly({
        bio: body.bio,
        teacherReferenceNumber: body.teacher_reference_number,
        tutoringExperienceMonths: body.tutoring_experience_months,
        isVisible: body.is_visible,
      })
      const profile = await unwrap(updateProfile(deps, currentUser(c), { id: c.req.valid('param').id, patch }))
      return c.json({ data: present(profile) }, 200)
    },
  )
}

function educationRoutes(app: App, services: Services): void {
  const deps = services.profiles
  const about = 'Years are whole calendar years; `end_year` null means still studying.'

  mount(app, ['/api/v1/education'], listRoute(tags, 'Education records', EducationSchema, about), async (c) => {
    const { user_id, ...page } = c.req.valid('query')
    const records = await unwrap(listEducation(deps, currentUser(c), { userId: user_id }))
    return c.json(paginate(records.map(presentEducation), page), 200)
  })

  mount(app, ['/api/v1/education'], createRoute(tags, 'Add an education record', EducationBody, EducationSchema, about), async (c) => {
    const fields = newEducation(c.req.valid('json'))
    const record = await unwrap(addEducation(deps, currentUser(c), { userId: c.req.valid('query').user_id, fields }))
    return c.json({ data: presentEducation(record) }, 201)
  })

  mount(
    app,
    ['/api/v1/education/{id}'],
    updateRoute(tags, 'Change an education record', EducationPatchBody, EducationSchema, about),
    async (c) => {
      const input = { id: c.req.valid('param').id, patch: educationFields(c.req.valid('json')) }
      return c.json({ data: presentEducation(await unwrap(updateEducation(deps, currentUser(c), input))) }, 200)
    },
  )

  mount(app, ['/api/v1/education/{id}'], deleteRoute(tags, 'Remove an education record'), async (c) => {
    await unwrap(removeEducation(deps, currentUser(c), c.req.valid('param').id))
    return c.body(null, 204)
  })
}

function professionRoutes(app: App, services: Services): void {
  const deps = services.profiles
  const about = '`end_date` null means the current position.'

  mount(app, ['/api/v1/professions'], listRoute(tags, 'Professional experience', ProfessionSchema, about), async (c) => {
    const { user_id, ...page } = c.req.valid('query')
    const records = await unwrap(listProfessions(deps, currentUser(c), { userId: user_id }))
    return c.json(paginate(records.map(presentProfession), page), 200)
  })

  mount(
    app,
    ['/api/v1/professions'],
    createRoute(tags, 'Add a profession', ProfessionBody, ProfessionSchema, about),
    async (c) => {
      const fields = newProfession(c.req.valid('json'))
      const record = await unwrap(addProfession(deps, currentUser(c), { userId: c.req.valid('query').user_id, fields }))
      return c.json({ data: presentProfession(record) }, 201)
    },
  )

  mount(
    app,
    ['/api/v1/professions/{id}'],
    updateRoute(tags, 'Change a profession', ProfessionPatchBody, ProfessionSchema, about),
    async (c) => {
      const input = { id: c.req.valid('param').id, patch: professionFields(c.req.valid('json')) }
      return c.json({ data: presentProfession(await unwrap(updateProfession(deps, currentUser(c), input))) }, 200)
    },
  )

  mount(app, ['/api/v1/professions/{id}'], deleteRoute(tags, 'Remove a profession'), async (c) => {
    await unwrap(removeProfession(deps, currentUser(c), c.req.valid('param').id))
    return c.body(null, 204)
  })
}

function childRoutes(app: App, services: Services): void {
  const deps = services.profiles
  const about = 'Children belong to parent accounts; anyone else has none, and may not add one (403).'

  mount(app, ['/api/v1/children'], listRoute(tags, "A parent's children", ChildSchema, about), async (c) => {
    const { user_id, ...page } = c.req.valid('query')
    const children = await unwrap(listChildren(deps, currentUser(c), { userId: user_id }))
    return c.json(paginate(children.map(presentChild), page), 200)
  })

  mount(app, ['/api/v1/children'], createRoute(tags, 'Add a child (parents only)', ChildBody, ChildSchema, about), async (c) => {
    const body = c.req.valid('json')
    const fields = { firstname: body.firstname, lastname: body.lastname, dateOfBirth: body.date_of_birth ?? null }
    const child = await unwrap(addChild(deps, currentUser(c), { userId: c.req.valid('query').user_id, fields }))
    return c.json({ data: presentChild(child) }, 201)
  })

  mount(app, ['/api/v1/children/{id}'], updateRoute(tags, 'Change a child', ChildPatchBody, ChildSchema, about), async (c) => {
    const input = { id: c.req.valid('param').id, patch: childFields(c.req.valid('json')) }
    return c.json({ data: presentChild(await unwrap(updateChild(deps, currentUser(c), input))) }, 200)
  })

  mount(
    app,
    ['/api/v1/children/{id}'],
    deleteRoute(tags, 'Remove a child', 'A soft delete: the child leaves every list, and lessons that name the child keep their link.'),
    async (c) => {
      await unwrap(removeChild(deps, currentUser(c), c.req.valid('param').id))
      return c.body(null, 204)
    },
  )
}
