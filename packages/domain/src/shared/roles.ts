export const ROLE_IDS = { student: 1, parent: 2, tutor: 3, internal: 200 } as const
export type RoleName = keyof typeof ROLE_IDS
export type RoleId = (typeof ROLE_IDS)[RoleName]

export const roleName = (roleId: number): RoleName | undefined =>
  (Object.keys(ROLE_IDS) as RoleName[]).find((name) => ROLE_IDS[name] === roleId)

export const isInternal = (roleId: number): boolean => roleId === ROLE_IDS.internal

/** Whoever asks for an action; policies decide from this and the record's parties. */
export type Actor = { id: number; roleId: RoleId }

/** The user themselves, or internal staff: who may see and change a user's own records. */
export const actsFor = (actor: Actor, userId: number): boolean => actor.id === userId || isInternal(actor.roleId)
