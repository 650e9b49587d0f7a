import { html } from 'hono/html'
import { htmlPage } from './html-page'
import { problems } from './problem'
import { PROBLEM_CODES, PROBLEM_TYPES, slugOf } from './problem-types'
import type { App } from './routes'

const CODES_BY_SLUG = new Map(PROBLEM_CODES.map((code) => [slugOf(code), code]))

/** GET /problems/{slug}: the page a problem's `type` names, for the person reading the answer. */
export function problemPages(app: App): void {
  app.get('/problems/:slug', (c) => {
    const code = CODES_BY_SLUG.get(c.req.param('slug'))
    if (code === undefined) throw problems.notFound('No such problem type.')
    const { title, statuses, about } = PROBLEM_TYPES[code]
    const body = html`<p>${about}</p>
      <p>Answered with HTTP status ${statuses.join(' or ')}, as <code>application/problem+json</code> with <code>"code": "${code}"</code>.</p>`
    return c.html(htmlPage(title, body, 'code { background: #f3f3f3; padding: 0 .2em; }'), 200)
  })
}
