import type { Forbidden, NotFound, ValidationFailed } from '../shared'

export type ProfilesError = NotFound | Forbidden | ValidationFailed
