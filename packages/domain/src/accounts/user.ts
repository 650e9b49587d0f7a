import type { RoleId } from '../shared'

export type User = {
  id: number
  email: string
  username: string
  firstname: string
  lastname: string
  roleId: RoleId
  country: string
  emailVerifiedAt: Date | null
  createdAt: Date
}

export type UserWithPassword = User & { passwordHash: string }

/** Emails compare case-insensitively and without surrounding blanks. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase()

/** Usernames are public handles: lower-case letters, digits, dots, dashes and underscores. */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{2,29}$/

/** A readable handle from a name, e.g. "Ada Lovelace" -> "ada.lovelace". */
export const usernameBase = (firstname: string, lastname: string): string => {
  const clean = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '')
  const base = [clean(firstname), clean(lastname)].filter(Boolean).join('.')
  return (base.length >= 3 ? base : `${base}user`).slice(0, 24)
}
