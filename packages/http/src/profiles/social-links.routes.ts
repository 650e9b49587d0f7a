import { z } from '@hono/zod-openapi'
import { addSocialLink, listSocialLinks, removeSocialLink, updateSocialLink } from '@tutoring/domain/profiles'
import { currentUser } from '../platform/auth'
import { listOf, paginate, paginationQuery } from '../platform/pagination'
import { problems } from '../platform/problem'
import { unwrap } from '../platform/respond'
import { commonProblems, jsonContent, mount, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { createRoute, deleteRoute, updateRoute } from './owned-routes'
import { SocialLinkBody, SocialLinkPatchBody, SocialLinkSchema, definedOnly, presentSocialLink } from './profiles.schemas'

const tags = ['Social links']

/**
 * SPEC lists these as "mixed" auth. Decision: links are public profile data, so reading is
 * open to anyone; writing is auth:api and only the owner's (or internal staff's).
 */
export function socialLinkRoutes(app: App, services: Services): void {
  const deps = services.profiles

  mount(
    app,
    ['/api/social-links'],
    {
      method: 'get',
      tags,
      summary: "A user's social links (public)",
      description:
        "Public: anyone may read any user's links with `user_id`. Without `user_id` a signed-in caller gets their own; " +
        'an anonymous caller must name a user (422). An unknown or deleted user is a 404.',
      request: {
        query: z.object({ ...paginationQuery, user_id: z.coerce.number().int().positive().optional() }),
      },
      responses: { 200: jsonContent(listOf(SocialLinkSchema), 'A page of links'), 404: commonProblems[404], 422: commonProblems[422] },
    },
    async (c) => {
      const { user_id, ...page } = c.req.valid('query')
      const userId = user_id ?? c.get('user')?.id
      if (userId === undefined) throw problems.validation({ user_id: ['is required'] })
      const links = await unwrap(listSocialLinks(deps, { userId }))
      return c.json(paginate(links.map(presentSocialLink), page), 200)
    },
  )

  mount(app, ['/api/social-links'], createRoute(tags, 'Add a social link', SocialLinkBody, SocialLinkSchema, 'URLs are https only.'), async (c) => {
    const input = { userId: c.req.valid('query').user_id, fields: c.req.valid('json') }
    return c.json({ data: presentSocialLink(await unwrap(addSocialLink(deps, currentUser(c), input))) }, 201)
  })

  mount(app, ['/api/social-links/{id}'], updateRoute(tags, 'Change a social link', SocialLinkPatchBody, SocialLinkSchema), async (c) => {
    const input = { id: c.req.valid('param').id, patch: definedOnly(c.req.valid('json')) }
    return c.json({ data: presentSocialLink(await unwrap(updateSocialLink(deps, currentUser(c), input))) }, 200)
  })

  mount(app, ['/api/social-links/{id}'], deleteRoute(tags, 'Remove a social link'), async (c) => {
    await unwrap(removeSocialLink(deps, currentUser(c), c.req.valid('param').id))
    return c.body(null, 204)
  })
}
