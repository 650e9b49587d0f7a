import { routeGroups } from '../platform/routes'
import { bankAccountRoutes } from './bank-accounts.routes'
import { cardRoutes } from './cards.routes'

/** Saved cards and tutors' payout bank accounts. */
export const routes = routeGroups(cardRoutes, bankAccountRoutes)
export { ProcessorEventBody, parseEventObject, type ProcessorEvent } from './payments.schemas'
