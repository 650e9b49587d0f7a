/**
 * Lesson types. The domain holds the names only; SPEC.md's ids (TUTORS_HOME 1, STUDENTS_HOME 2,
 * ONLINE 3), which the wire and the lessons table use, are mapped only at those edges: http's
 * schemas and presenters, adapters' row mappers.
 */
export const LESSON_TYPE_IDS = { tutors_home: 1, students_home: 2, online: 3 } as const
export type LessonTypeName = keyof typeof LESSON_TYPE_IDS

/** In id order; every list of lesson types the domain returns follows it. */
export const LESSON_TYPES = ['tutors_home', 'students_home', 'online'] as const satisfies readonly LessonTypeName[]

export const lessonTypeName = (id: number): LessonTypeName | undefined =>
  LESSON_TYPES.find((name) => LESSON_TYPE_IDS[name] === id)

export const isInPerson = (type: LessonTypeName): boolean => type !== 'online'
