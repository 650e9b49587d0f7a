import type { DaySchedule, TutorHoliday, TutorLocationRecord } from '../schedule'
import type { Clock, Geocoder, GeoPoint, LessonTypeName, PostcodeParser, UnitOfWork } from '../shared'
import type { Teach, TutorBookability } from '../teaching'
import type { BusyInterval } from './busy'

/**
 * A live, enabled teach of a live tutor, with what availability needs of the tutor and what
 * decides whether the tutor may be booked (`findBookable` applies teaching's `isBookable`).
 */
export type BookableTeach = {
  teach: Teach
  tutor: TutorBookability
  /** The tutor's IANA zone (profiles.time_zone). */
  timeZone: string
  /** The tutor's external calendar (an ICS feed), if connected. */
  calendarFeedUrl: string | null
}

export interface BookableTeachReader {
  /** Undefined when the teach is deleted or disabled, or its tutor deleted. One query. Use `findBookable`, which also asks `isBookable`. */
  findBookableTeach(teachId: number): Promise<BookableTeach | undefined>
}

/** A live (not cancelled) lesson of a tutor, as availability sees it. */
export type TutorLesson = {
  id: number
  start: Date
  finish: Date
  lessonType: LessonTypeName
  /** Coordinates stored with the lesson's address (students_home), if any. */
  addressPoint: GeoPoint | null
}

/** The instants whose lessons one question reads, and a lesson to leave out (rescheduling it). */
export type SlotFactsRange = { from: Date; to: Date; excludeLessonId?: number }

/** What availability reads of a tutor besides the teach: all of it or none of it, in one statement. */
export type TutorSlotFacts = {
  /** Every schedule entry, by day and first window (as `DayScheduleRepository.listForTutor`). */
  schedule: DaySchedule[]
  /** By start date. */
  holidays: TutorHoliday[]
  location: TutorLocationRecord | undefined
  /** The live (not cancelled) lessons overlapping [from, to), in start order. */
  lessons: TutorLesson[]
}

/**
 * Availability's reads of the database, each one statement: the per-statement cost, not the
 * rows, is what a busy database charges an availability question for (issue 12).
 */
export interface TutorSlotFactsReader {
  forTutor(tutorId: number, range: SlotFactsRange): Promise<TutorSlotFacts>
  /**
   * `BookableTeachReader.findBookableTeach` and its tutor's facts together; undefined as it
   * is. Use `findBookableWithFacts`, which also asks `isBookable`.
   */
  forTeach(teachId: number, range: SlotFactsRange): Promise<(BookableTeach & { facts: TutorSlotFacts }) | undefined>
}

export interface CalendarFeedRepository {
  findForTutor(tutorId: number): Promise<string | null>
  /** Sets or (null) disconnects the tutor's feed. */
  setForTutor(tutorId: number, url: string | null): Promise<void>
}

/**
 * Driving minutes between one place and several others, both ways. An adapter answers
 * every pair (estimating where its service can not), in the order of `places`, in one call.
 */
export interface TravelTimes {
  between(origin: GeoPoint, places: readonly GeoPoint[]): Promise<{ to: number[]; from: number[] }>
}

/**
 * Busy times of an external calendar feed. Adapters answer [] when the feed can not be
 * read (logged): a broken feed must not take availability down.
 */
export interface BusyCalendar {
  busyBetween(feedUrl: string, from: Date, to: Date): Promise<BusyInterval[]>
}

/** One UK address of a postcode, for address pickers. */
export type AddressMatch = {
  line1: string | null
  line2: string | null
  city: string | null
  postcode: string
  country: 'GB'
  lat: number
  lng: number
}

/** UK postcode lookup: coordinates (as `Geocoder`) and the addresses known at a postcode. */
export interface AddressDirectory extends Geocoder {
  /** Addresses at a normalised postcode; [] when unknown. */
  addressesAt(postcode: string): Promise<AddressMatch[]>
  /** Known postcodes starting with a partial postcode ("SW1A", "SW1A 1"), one match each, at most `limit`. */
  postcodesStartingWith(prefix: string, limit: number): Promise<AddressMatch[]>
}

export interface AvailabilityRepos {
  bookableTeaches: BookableTeachReader
  slotFacts: TutorSlotFactsReader
  calendarFeeds: CalendarFeedRepository
}

export type AvailabilityDeps = {
  uow: UnitOfWork<AvailabilityRepos>
  clock: Clock
  postcodes: PostcodeParser
  geocoder: Geocoder
  travel: TravelTimes
  calendar: BusyCalendar
  config: { serviceFeePercent: number }
}
