import { noteRoutes } from './notes.routes'

/** Lesson notes: written by the lesson's tutor, seen by whoever sees the lesson. */
export const routes = noteRoutes
