export { createUser, type CreateUserInput } from './create-user'
export type { RegistrationAddress, RegistrationDeps, RegistrationLookups, RegistrationRecords, RegistrationRepos } from './ports'
export { type RegisterError, type RegisterInput, registerUser } from './register-user'
