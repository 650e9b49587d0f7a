import { allVerificationsPassed, transitionVerification, type VerificationStatuses } from '@tutoring/domain/verification'

// Each of a tutor's three checks moves through one table: a submission makes it PENDING, the
// identity provider or staff settle it. Search and booking need all three passed.
const statuses: VerificationStatuses = { identity: 'PASS', dbs: 'NONE', qualification: 'PASS' }
console.log(`all passed: ${allVerificationsPassed(statuses)}`)

// A DBS certificate uploaded, then passed by staff.
const dbs = { kind: 'dbs', documentUploaded: true } as const
for (const trigger of ['submit', 'internal_passed'] as const) {
  const next = transitionVerification(statuses.dbs, trigger, dbs)
  if (next.isOk()) statuses.dbs = next.value.to
  console.log(`dbs ${trigger}: ${statuses.dbs}`)
}
console.log(`all passed: ${allVerificationsPassed(statuses)}`)

// Staff pass a DBS check only on its document, and never review identity (the provider does).
const noDocument = transitionVerification('PENDING', 'internal_passed', { kind: 'dbs', documentUploaded: false })
if (noDocument.isErr()) console.log(`without a document: ${noDocument.error.type}`)
const identity = transitionVerification('PENDING', 'internal_passed', { kind: 'identity', documentUploaded: true })
if (identity.isErr()) console.log(`staff on identity: ${identity.error.type}`)

// The provider's result notifies the team by email (an effect the adapter queues).
const provider = transitionVerification('PENDING', 'provider_referred', { kind: 'identity', documentUploaded: false })
console.log(provider.map(({ to, effects }) => `provider referred: ${to}, ${effects.map((e) => `${e.type} ${e.template}`).join(', ')}`).unwrapOr(''))
