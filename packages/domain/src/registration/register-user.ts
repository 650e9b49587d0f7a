import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { issueSession, normaliseEmail, verificationEmail, type SessionIssued, type User } from '../accounts'
import type { CardDetails } from '../payments'
import { ROLE_IDS, validationFailed, type FieldErrors, type ValidationFailed } from '../shared'
import { SUBSCRIPTION_CREATE_TOPIC } from '../subscriptions'
import { insertUser } from './insert-user'
import type { RegistrationAddress, RegistrationDeps, RegistrationRepos } from './ports'

export type RegisterInput = {
  email: string
  password: string
  firstname: string
  lastname: string
  role: 'student' | 'parent' | 'tutor'
  country: string
  dateOfBirth?: string
  profilePicture?: string
  address?: Omit<RegistrationAddress, 'country' | 'line2'> & { line2?: string | null; country?: string }
  mobile?: string
  dbs?: { certificateNumber: string; issueDate: string }
  card?: { paymentMethod: string }
}

export type RegisterError = ValidationFailed

/**
 * Creates the user and everything registration promises in one transaction; a failure
 * leaves no user behind. A card is checked with the processor first, because that is the
 * only step that can be refused from outside.
 */
export function registerUser(deps: RegistrationDeps, input: RegisterInput): ResultAsync<SessionIssued, RegisterError> {
  return new ResultAsync(register(deps, { ...input, email: normaliseEmail(input.email) }))
}

async function register(deps: RegistrationDeps, input: RegisterInput): Promise<Result<SessionIssued, RegisterError>> {
  const problems = await precheck(deps, input)
  if (Object.keys(problems).length > 0) return err(validationFailed(problems))

  let customer: VerifiedCard | undefined
  if (input.card) {
    const verified = await verifyCard(deps, input)
    if (verified.isErr()) return err(verified.error)
    customer = verified.value
  }

  const passwordHash = await deps.hasher.hash(input.password)
  try {
    const result = await deps.uow.run((repos) => createEverything(deps, repos, input, passwordHash, customer))
    if (result.isErr() && customer) await deps.processor.deleteCustomer(customer.customerId)
    return result
  } catch (error) {
    if (customer) await deps.processor.deleteCustomer(customer.customerId).catch(() => undefined)
    throw error
  }
}

async function precheck(deps: RegistrationDeps, input: RegisterInput): Promise<FieldErrors> {
  const { users, reference } = deps.uow.repos
  const problems: FieldErrors = {}
  if (await users.isEmailTaken(input.email)) problems.email = ['has already been taken']
  if (!(await reference.countryExists(input.country))) problems.country = ['is not a known country code']
  if (input.address?.country && !(await reference.countryExists(input.address.country))) {
    problems['address.country'] = ['is not a known country code']
  }
  if (input.profilePicture && !(await reference.isClaimableImage(input.profilePicture, null))) {
    problems.profile_picture = ['must be the id of an image you uploaded']
  }
  if (input.dbs && input.role !== 'tutor') problems.dbs = ['is only for tutors']
  return problems
}

type VerifiedCard = { customerId: string; card: CardDetails }

async function verifyCard(deps: RegistrationDeps, input: RegisterInput): Promise<Result<VerifiedCard, ValidationFailed>> {
  const name = `${input.firstname} ${input.lastname}`
  const { customerId } = await deps.processor.createCustomer({ email: input.email, name })
  const attached = await deps.processor.attachCard(customerId, input.card!.paymentMethod)
  if (attached.isErr()) {
    await deps.processor.deleteCustomer(customerId)
    return err(validationFailed({ 'card.payment_method': [attached.error.reason] }))
  }
  return ok({ customerId, card: attached.value })
}

async function createEverything(
  deps: RegistrationDeps,
  repos: RegistrationRepos,
  input: RegisterInput,
  passwordHash: string,
  customer: VerifiedCard | undefined,
): Promise<Result<SessionIssued, RegisterError>> {
  const user = await insertUser(deps, repos.users, {
    email: input.email,
    passwordHash,
    firstname: input.firstname,
    lastname: input.lastname,
    roleId: ROLE_IDS[input.role],
    country: input.country,
    processorCustomerId: customer?.customerId ?? null,
  })
  if (!user) return err(validationFailed({ email: ['has already been taken'] }))

  await createRelatedRecords(deps, repos, user, input)
  if (customer) await repos.registration.insertDefaultCard(user.id, customer.card)
  if (input.role === 'tutor') await startTrial(deps, repos, user)
  await queueRegisteredMessages(deps, repos, user)
  return ok(await issueSession(deps, repos.accessTokens, user))
}

async function createRelatedRecords(deps: RegistrationDeps, repos: RegistrationRepos, user: User, input: RegisterInput) {
  const { registration, reference } = repos
  await registration.insertPersonalDetails(user.id, { dateOfBirth: input.dateOfBirth ?? null })
  await registration.insertProfile(user.id, { pictureFileId: input.profilePicture ?? null })
  if (input.profilePicture) await reference.claimFile(input.profilePicture, user.id)
  if (input.address) {
    await registration.insertAddress(user.id, {
      ...input.address,
      line2: input.address.line2 ?? null,
      country: input.address.country ?? input.country,
    })
  }
  if (input.mobile) await registration.insertMobileNumber(user.id, input.mobile)
  if (input.dbs) {
    const reference = `dbs_${deps.secrets.randomSuffix(16)}`
    await registration.insertDbsVerification(user.id, { ...input.dbs, reference })
  }
}

/** A tutor's membership starts trialing at once; the processor copy is made by the outbox. */
async function startTrial(deps: RegistrationDeps, repos: RegistrationRepos, user: User) {
  const plan = await repos.reference.activeSubscriptionPlan()
  if (!plan) throw new Error('no active subscription plan: run the seed')
  const trialEndsAt = new Date(deps.clock.now().getTime() + plan.trialPeriodDays * 86_400_000)
  const { subscriptionId } = await repos.registration.insertTrialSubscription(user.id, { planId: plan.id, trialEndsAt })
  await repos.outbox.enqueue({
    kind: 'processor_sync',
    topic: SUBSCRIPTION_CREATE_TOPIC,
    data: { subscriptionId, userId: user.id },
    dedupeKey: `${SUBSCRIPTION_CREATE_TOPIC}:${subscriptionId}`,
  })
}

async function queueRegisteredMessages(deps: RegistrationDeps, repos: RegistrationRepos, user: User) {
  await repos.outbox.enqueue(verificationEmail(deps, user, `verify_email:${user.id}:registered`))
  await repos.outbox.enqueue({
    kind: 'email',
    template: 'registered_internal',
    to: deps.config.internalMailbox,
    data: { userId: user.id, email: user.email, roleId: user.roleId, name: `${user.firstname} ${user.lastname}` },
    dedupeKey: `registered_internal:${user.id}`,
  })
}
