import type { z as Zod } from 'zod'
import type { RoleName } from '@tutoring/domain/shared'
import type { Command, OptionValues } from '../command'
import { CliError, usageError } from '../io'
import { withServices } from '../resources'

const ROLES = ['internal', 'tutor', 'student', 'parent'] as const satisfies readonly RoleName[]

// Built when the command runs: zod and the domain load only for the command that needs them.
const inputSchema = (z: typeof Zod) =>
  z.object({
    email: z.string().trim().toLowerCase().pipe(z.email('must be a valid email address').max(254)),
    password: z.string(),
    role: z.enum(ROLES, `must be one of ${ROLES.join(', ')}`),
    firstname: z.string().trim().min(1, 'must not be blank').max(100),
    lastname: z.string().trim().min(1, 'must not be blank').max(100),
  })

/** The flags as createUser takes them: missing flags are a usage error (2), bad values exit 1. */
async function parseInput(values: OptionValues) {
  const missing = FLAGS.filter((flag) => values[flag] === undefined)
  if (missing.length > 0) throw usageError(`missing ${missing.map((f) => `--${f}`).join(', ')}`)
  const { z } = await import('zod')
  const parsed = inputSchema(z).safeParse(values)
  if (!parsed.success) throw new CliError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '))
  return parsed.data
}

const FLAGS = ['email', 'password', 'role', 'firstname', 'lastname'] as const

const fieldErrors = (errors: Record<string, string[]>): string =>
  Object.entries(errors)
    .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
    .join('; ')

export const userCreate: Command = {
  name: 'user:create',
  usage: '--email E --password P --role internal|tutor|student|parent --firstname F --lastname L',
  summary: 'create a user of any role (the only way to make an internal user); the email counts as verified',
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    role: { type: 'string' },
    firstname: { type: 'string' },
    lastname: { type: 'string' },
  },
  async check({ values }) {
    await parseInput(values)
  },
  async run({ io, config, values, answer }) {
    const input = await parseInput(values)
    const { createUser } = await import('@tutoring/domain/registration')
    const user = await withServices(config, io, async (services) => {
      const created = await createUser(services.accounts, input)
      if (created.isErr()) throw new CliError(fieldErrors(created.error.errors))
      return created.value
    })
    answer(
      { id: user.id, email: user.email, username: user.username, role: input.role },
      `created ${input.role} user ${user.id}: ${user.email} (username ${user.username})`,
    )
  },
}
