export type { RegistrationAddress, RegistrationDeps, RegistrationLookups, RegistrationRecords, RegistrationRepos } from './ports'
export { registerUser, type RegisterInput, type RegisterError } from './register-user'
export { createUser, type CreateUserInput } from './create-user'
