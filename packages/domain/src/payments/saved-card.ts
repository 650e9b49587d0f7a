/** A card saved on a user's account; the processor holds the number, this only what is shown. */
export type SavedCard = {
  id: number
  userId: number
  paymentMethodId: string
  brand: string
  last4: string
  expMonth: number
  expYear: number
  isDefault: boolean
  createdAt: Date
}
