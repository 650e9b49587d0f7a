import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { DURATION_PREFERENCE, lessonDurationProblem } from '../availability'
import { lessonPricer } from '../pricing'
import {
  BOOKING_WINDOW_DAYS,
  dayNumberOf,
  findPostcode,
  isIsoDate,
  londonToday,
  validationFailed,
  weekdayIndexOf,
  type FieldErrors,
  type GeoPoint,
  type IsoDate,
  type LessonTypeName,
  type PageOf,
  type PageRequest,
  type ValidationFailed,
} from '../shared'
import type { Gender } from '../profiles'
import type { SearchDeps, SearchSort, TutorSearchCriteria, TutorSearchResult } from './ports'

export type SearchTutorsInput = {
  subjectId?: number
  subjectLevelIds?: readonly number[]
  examBoardIds?: readonly number[]
  date?: IsoDate
  durationMinutes?: number
  postCode?: string
  lat?: number
  lng?: number
  sort?: SearchSort
  lessonType?: LessonTypeName
  gender?: Gender
  languageId?: number
  page: PageRequest
}

export type TutorSearchPage = PageOf<TutorSearchResult> & { durationMinutes: number }

/**
 * Public tutor search (SPEC "Search and reference data"): the eight eligibility rules of
 * `searchEligibility`, run by the repository in the database, plus the teach, gender and
 * language filters, one row per tutor with the price of the requested duration.
 * A date outside today..today+14 (London) finds nobody rather than failing (CONTRACT §5).
 */
export function searchTutors(deps: SearchDeps, input: SearchTutorsInput): ResultAsync<TutorSearchPage, ValidationFailed> {
  return new ResultAsync(run(deps, input))
}

async function run(deps: SearchDeps, input: SearchTutorsInput): Promise<Result<TutorSearchPage, ValidationFailed>> {
  const checked = checkInput(input)
  if (checked.isErr()) return err(checked.error)
  const place = await studentLocation(deps, input)
  if (place.isErr()) return err(place.error)
  const location = place.value
  if (input.sort === 'distance' && !location) {
    return err(validationFailed({ sort: ['distance needs a place: post_code, or lat and lng'] }))
  }
  const durationMinutes = input.durationMinutes ?? DURATION_PREFERENCE.default
  const today = londonToday(deps.clock.now())
  const empty: TutorSearchPage = { items: [], total: 0, durationMinutes }
  if (input.date !== undefined) {
    const days = dayNumberOf(input.date) - dayNumberOf(today)
    if (days < 0 || days > BOOKING_WINDOW_DAYS) return ok(empty)
  }
  const criteria: TutorSearchCriteria = {
    today,
    ...(input.date !== undefined && { date: input.date, weekday: weekdayIndexOf(dayNumberOf(input.date)) }),
    ...(input.lessonType !== undefined && { lessonType: input.lessonType }),
    ...(location && { studentLocation: location }),
    ...(input.subjectId !== undefined && { subjectId: input.subjectId }),
    subjectLevelIds: input.subjectLevelIds ?? [],
    examBoardIds: input.examBoardIds ?? [],
    ...(input.gender !== undefined && { gender: input.gender }),
    ...(input.languageId !== undefined && { languageId: input.languageId }),
    sort: input.sort ?? (location ? 'distance' : 'rating'),
  }
  const found = await deps.uow.repos.tutorSearch.search(criteria, input.page)
  const priceOf = lessonPricer({ durationMinutes, serviceFeePercent: deps.config.serviceFeePercent })
  const items = found.items.map((hit) => ({ ...hit, price: priceOf(hit.teach.hourlyRatePence) }))
  return ok({ items, total: found.total, durationMinutes })
}

function checkInput(input: SearchTutorsInput): Result<void, ValidationFailed> {
  const errors: FieldErrors = {}
  if (input.date !== undefined && !isIsoDate(input.date)) errors.date = ['must be a YYYY-MM-DD date']
  const duration = input.durationMinutes === undefined ? undefined : lessonDurationProblem(input.durationMinutes)
  if (duration) errors.duration = [duration]
  const hasLat = input.lat !== undefined
  const hasLng = input.lng !== undefined
  if (hasLat !== hasLng) errors[hasLat ? 'lng' : 'lat'] = ['is required with the other coordinate']
  if (hasLat && (!Number.isFinite(input.lat) || input.lat! < -90 || input.lat! > 90)) errors.lat = ['must be a latitude from -90 to 90']
  if (hasLng && (!Number.isFinite(input.lng) || input.lng! < -180 || input.lng! > 180)) errors.lng = ['must be a longitude from -180 to 180']
  if (input.postCode !== undefined && (hasLat || hasLng)) errors.post_code = ['give either post_code or lat and lng, not both']
  return Object.keys(errors).length > 0 ? err(validationFailed(errors)) : ok(undefined)
}

async function studentLocation(deps: SearchDeps, input: SearchTutorsInput): Promise<Result<GeoPoint | undefined, ValidationFailed>> {
  if (input.lat !== undefined && input.lng !== undefined) return ok({ lat: input.lat, lng: input.lng })
  if (input.postCode === undefined) return ok(undefined)
  return findPostcode(deps, input.postCode, 'post_code')
}

