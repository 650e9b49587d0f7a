import { z } from '@hono/zod-openapi'
import { formatSortCode, type BankAccount, type CardDetails, type SavedCard } from '@tutoring/domain/payments'
import { problems } from '../platform/problem'

export const idParam = z.object({ id: z.coerce.number().int().positive().openapi({ param: { name: 'id', in: 'path' }, example: 1 }) })

const paymentMethodId = z
  .string()
  .max(255)
  .trim()
  .min(3)
  .regex(/^pm_[A-Za-z0-9_]+$/, 'must be a processor payment method id (pm_...)')
  .openapi({ example: 'pm_card_visa' })

export const CardBody = z.strictObject({ payment_method: paymentMethodId }).openapi('CardRequest')
export const CardUpdateBody = z
  .strictObject({ is_default: z.literal(true).openapi({ description: 'Only `true`: make this card the default. To stop a default, make another card the default.' }) })
  .openapi('CardUpdateRequest')

export const CardSchema = z
  .object({
    id: z.number().int(),
    brand: z.string().openapi({ example: 'visa' }),
    last4: z.string().openapi({ example: '4242' }),
    exp_month: z.number().int(),
    exp_year: z.number().int(),
    is_default: z.boolean(),
    created_at: z.string(),
  })
  .openapi('Card')

export const presentCard = (card: SavedCard): z.infer<typeof CardSchema> => ({
  id: card.id,
  brand: card.brand,
  last4: card.last4,
  exp_month: card.expMonth,
  exp_year: card.expYear,
  is_default: card.isDefault,
  created_at: card.createdAt.toISOString(),
})

export const CardValidationSchema = z
  .object({ valid: z.literal(true), brand: z.string(), last4: z.string(), exp_month: z.number().int(), exp_year: z.number().int() })
  .openapi('CardValidation')

export const presentCardValidation = (card: CardDetails): z.infer<typeof CardValidationSchema> => ({
  valid: true,
  brand: card.brand,
  last4: card.last4,
  exp_month: card.expMonth,
  exp_year: card.expYear,
})

export const BankAccountBody = z
  .strictObject({
    account_holder_name: z.string().max(140).trim().min(1),
    sort_code: z.string().regex(/^(\d{2}-\d{2}-\d{2}|\d{6})$/, 'must be six digits, as 12-34-56 or 123456').openapi({ example: '12-34-56' }),
    account_number: z.string().regex(/^\d{8}$/, 'must be eight digits').openapi({ example: '12345678' }),
  })
  .openapi('BankAccountRequest')

export const BankAccountUpdateBody = z
  .strictObject({
    account_holder_name: z.string().max(140).trim().min(1).optional(),
    is_default: z.literal(true).optional().openapi({ description: 'Only `true`: make this account the default for payouts' }),
  })
  .refine((b) => b.account_holder_name !== undefined || b.is_default !== undefined, { message: 'give account_holder_name or is_default', path: ['body'] })
  .openapi('BankAccountUpdateRequest')

export const BankAccountLinkBody = z.strictObject({ bank_account_id: z.number().int().positive() }).openapi('BankAccountLinkRequest')

export const BankAccountSchema = z
  .object({
    id: z.number().int(),
    user_id: z.number().int(),
    account_holder_name: z.string(),
    sort_code: z.string().openapi({ example: '12-34-56' }),
    last4: z.string().openapi({ example: '5678' }),
    is_default: z.boolean(),
    linked: z.boolean(),
    linked_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('BankAccount')

/** The processor's ids stay inside: a client has no use for them. */
export const presentBankAccount = (account: BankAccount): z.infer<typeof BankAccountSchema> => ({
  id: account.id,
  user_id: account.userId,
  account_holder_name: account.accountHolderName,
  sort_code: formatSortCode(account.sortCode),
  last4: account.last4,
  is_default: account.isDefault,
  linked: account.linkedAt !== null,
  linked_at: account.linkedAt?.toISOString() ?? null,
  created_at: account.createdAt.toISOString(),
})

/** A processor event as sent: `{id, type, created?, account?, data: {object}}`; other fields are tolerated. */
export const ProcessorEventBody = z
  .object({
    id: z.string().min(1).max(255).openapi({ description: 'Event id; a repeated id is a duplicate and changes nothing' }),
    type: z.string().min(1).max(255).openapi({ example: 'payment_intent.succeeded' }),
    created: z.number().int().nonnegative().optional().openapi({ description: 'Unix seconds; orders what events say of one connected account' }),
    account: z.string().min(1).max(255).optional().openapi({ description: 'The connected account a Connect event is about' }),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .openapi('ProcessorEvent')
export type ProcessorEvent = z.infer<typeof ProcessorEventBody>

/** An event's `data.object` as `schema` reads it; what it refuses is a 422 naming `data.object.<field>`. */
export const parseEventObject = <T>(schema: z.ZodType<T>, value: unknown): T => {
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    throw problems.validation(Object.fromEntries(parsed.error.issues.map((i) => [['data', 'object', ...i.path].join('.'), [i.message]])))
  }
  return parsed.data
}
