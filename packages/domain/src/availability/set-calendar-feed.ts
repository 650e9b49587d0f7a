import { ResultAsync, errAsync } from 'neverthrow'
import { fieldError, type Forbidden, type ValidationFailed, type Actor } from '../shared'
import { requireTutor } from '../teaching'
import type { AvailabilityDeps } from './ports'

export const CALENDAR_FEED_URL_MAX = 2048

/** `webcal://` is how calendars hand out feeds; it is fetched over https. */
export const normaliseFeedUrl = (text: string): string | undefined => {
  const trimmed = text.trim().replace(/^webcal:\/\//i, 'https://')
  if (trimmed.length === 0 || trimmed.length > CALENDAR_FEED_URL_MAX) return undefined
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  if (url.username !== '' || url.password !== '') return undefined
  return url.toString()
}

/**
 * Connects (or with null disconnects) the calling tutor's external calendar: an ICS feed whose
 * events block availability. Only the URL's form is checked here; whether it may be fetched
 * (public addresses only) is the calendar adapter's check, made on every fetch.
 */
export function setCalendarFeed(
  deps: Pick<AvailabilityDeps, 'uow'>,
  actor: Actor,
  url: string | null,
): ResultAsync<{ url: string | null }, Forbidden | ValidationFailed> {
  const tutor = requireTutor(actor)
  if (tutor.isErr()) return errAsync(tutor.error)
  const normalised = url === null ? null : normaliseFeedUrl(url)
  if (normalised === undefined) return errAsync(fieldError('url', 'must be an http(s) or webcal URL without credentials'))
  return ResultAsync.fromSafePromise(
    deps.uow.repos.calendarFeeds.setForTutor(tutor.value.id, normalised).then(() => ({ url: normalised })),
  )
}
