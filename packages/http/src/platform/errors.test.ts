import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { createLogger } from '@tutoring/adapters'
import type { AppEnv } from './app-env'
import { renderError } from './errors'

describe('renderError', () => {
  const answerTo = async (error: Error) => {
    const app = new Hono<AppEnv>()
    app.get('/', () => {
      throw error
    })
    app.onError(renderError(createLogger('silent')))
    const res = await app.request('/')
    return { status: res.status, body: (await res.json()) as { code: string } }
  }

  it("answers the validator's 415 (a body type the route does not document) as 400 malformed_request, not a 500", async () => {
    expect(await answerTo(new HTTPException(415, { message: 'Unsupported Media Type' }))).toMatchObject({ status: 400, body: { code: 'malformed_request' } })
  })

  it('answers anything unknown as 500 internal_error', async () => {
    expect(await answerTo(new Error('boom'))).toMatchObject({ status: 500, body: { code: 'internal_error' } })
  })
})
