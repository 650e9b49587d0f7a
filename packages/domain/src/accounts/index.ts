export { authenticateBookingSecret, authenticateSignedLink } from './authenticate-link'
export { authenticateToken } from './authenticate-token'
export { claimUsername } from './claim-username'
export { deleteAccount } from './delete-account'
export { type AccountsError, type InvalidCredentials, unauthenticated, type Unauthenticated } from './errors'
export { findUserByUsername } from './find-user-by-username'
export { getUser } from './get-user'
export { isEmailRegistered } from './is-email-registered'
export { issueSession, type SessionIssued } from './issue-session'
export { logIn, type LogInInput } from './log-in'
export { logOut } from './log-out'
export { pickUsername } from './pick-username'
export type {
  AccessTokenRepository,
  AccountsDeps,
  AccountsRepos,
  LinkBuilder,
  LinkReader,
  NewUser,
  PasswordHasher,
  PasswordResetRepository,
  ReferenceLookups,
  SecretTokens,
  UserPatch,
  UserRepository,
} from './ports'
export { requestPasswordReset } from './request-password-reset'
export { resetPassword, type ResetPasswordInput } from './reset-password'
export { sendVerificationEmail, verificationEmail, type VerificationEmailOutcome } from './send-verification-email'
export { updateUser, type UpdateUserError } from './update-user'
export { normaliseEmail, type User, type UserWithPassword } from './user'
export { verifyEmail } from './verify-email'
