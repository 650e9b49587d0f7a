import { isInternal } from '../shared'
import type { User } from './user'

/** SPEC "User update (legacy): internal user or the user themselves"; reads follow it. */
export const mayManageUser = (actor: User, targetId: number): boolean =>
  actor.id === targetId || isInternal(actor.roleId)
