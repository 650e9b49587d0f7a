import type { ReviewVerificationError } from '@tutoring/domain/verification'
import type { Command, CommandLine } from '../command'
import { CliError, usageError } from '../io'
import { withServices } from '../resources'

const REVIEWED = ['dbs', 'qualification'] as const
type Reviewed = (typeof REVIEWED)[number]

/** The tutor (an id or an email), who reviews (a staff email) and which checks, from the command line. */
function reviewOf({ values, positionals }: CommandLine): { tutor: string; by: string; kinds: readonly Reviewed[] } {
  const [tutor] = positionals
  if (tutor === undefined) throw usageError('give the tutor, by id or email')
  if (typeof values.by !== 'string') throw usageError('missing --by, the email of the internal user who approves')
  const kind = values.kind
  if (kind !== undefined && !REVIEWED.includes(kind as Reviewed)) throw usageError('--kind takes dbs or qualification (identity is the provider\'s to decide)')
  return { tutor, by: values.by, kinds: kind === undefined ? REVIEWED : [kind as Reviewed] }
}

/**
 * `verification:pass TUTOR --by STAFF [--kind K]`: a staff member's approval of a tutor's
 * uploaded DBS certificate and qualification, through the same use case as
 * `PUT /api/tutors/{id}/verifications/{kind}`, with the same rules (a document must be
 * uploaded; a second PASS is refused). Each check's outcome is one line.
 */
export const verificationPass: Command = {
  name: 'verification:pass',
  usage: 'TUTOR --by STAFF_EMAIL [--kind dbs|qualification]',
  summary: "approve, as the internal user --by, a tutor's (id or email) uploaded DBS certificate and qualification (both, or --kind); identity passes only through the provider",
  options: { by: { type: 'string' }, kind: { type: 'string' } },
  positionals: 1,
  check: (line) => void reviewOf(line),
  async run({ io, config, answer, ...line }) {
    const review = reviewOf(line)
    const [{ normaliseEmail }, { reviewVerification }] = await Promise.all([import('@tutoring/domain/accounts'), import('@tutoring/domain/verification')])
    await withServices(config, io, async ({ verification }) => {
      const users = verification.uow.repos.users
      const staff = await users.findByEmailWithPassword(normaliseEmail(review.by))
      if (!staff) throw new CliError(`no user ${review.by}`)
      const tutor = /^\d+$/.test(review.tutor) ? await users.findById(Number(review.tutor)) : await users.findByEmailWithPassword(normaliseEmail(review.tutor))
      if (!tutor) throw new CliError(`no user ${review.tutor}`)
      const outcomes: Array<{ kind: Reviewed; status: string | null; error: string | null }> = []
      for (const kind of review.kinds) {
        const reviewed = await reviewVerification(verification, staff, { tutorId: tutor.id, kind, status: 'PASS' })
        outcomes.push(reviewed.isOk() ? { kind, status: reviewed.value.status, error: null } : { kind, status: null, error: describe(reviewed.error) })
      }
      answer(
        { tutor_id: tutor.id, checks: outcomes },
        outcomes.map((o) => (o.error === null ? `${o.kind}: ${o.status}` : `${o.kind}: refused, ${o.error}`)),
      )
      const refused = outcomes.filter((o) => o.error !== null).length
      if (refused > 0) throw new CliError(`${refused} of ${outcomes.length} checks were not approved`)
    })
  },
}

/** A refusal as one phrase. */
function describe(error: ReviewVerificationError): string {
  switch (error.type) {
    case 'Forbidden':
      return `the --by user is not internal staff (${error.reason})`
    case 'NotFound':
      return 'not a tutor'
    case 'ValidationFailed':
      return Object.entries(error.errors).map(([field, messages]) => `${field}: ${messages.join(', ')}`).join('; ')
    case 'DocumentMissing':
      return `the tutor has uploaded no ${error.kind} document yet`
    case 'InvalidStateTransition':
      return `the check is ${error.from.toLowerCase()}, not waiting for a review`
  }
}
