import { z } from '@hono/zod-openapi'
import { countryCode, mobileField, pastDate, personName, postcodeField } from '../platform/fields'
import { emailField, passwordField } from '../accounts'

const AddressInput = z.strictObject({
  line1: z.string().max(255).trim().min(1),
  line2: z.string().max(255).trim().nullable().optional(),
  city: z.string().max(100).trim().min(1),
  postcode: postcodeField,
  country: countryCode.optional(),
})

export const RegisterBody = z
  .strictObject({
    email: emailField,
    password: passwordField,
    firstname: personName,
    lastname: personName,
    role: z.enum(['student', 'parent', 'tutor']),
    country: countryCode,
    date_of_birth: pastDate.nullable().optional(),
    profile_picture: z.uuid().nullable().optional(),
    address: AddressInput.nullable().optional(),
    mobile: mobileField.nullable().optional(),
    dbs: z
      .strictObject({ certificate_number: z.string().trim().regex(/^\d{12}$/, 'must be the 12 digits of the certificate'), issue_date: pastDate })
      .nullable()
      .optional(),
    card: z.strictObject({ payment_method: z.string().max(255).trim().min(3) }).nullable().optional(),
  })
  .openapi('RegisterRequest')
