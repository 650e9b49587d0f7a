import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database'
import { integrationEvents } from './integration-events.repository'
import { webhookDeliveryRepository } from './webhook-delivery.repository'
import { webhookEndpointLocks, webhookEndpointRepository } from './webhook-endpoint.repository'

/** The integrations context's part of the repository bag, outside a transaction: no locks. */
export function integrationsRepositories(db: Kysely<Database>) {
  return {
    webhookEndpoints: webhookEndpointRepository(db),
    webhookDeliveries: webhookDeliveryRepository(db),
    integrationEvents: integrationEvents(db),
  }
}

/** The same part bound to a transaction: its repositories with the row locks they take there. */
export function withIntegrationsLocks(trx: Transaction<Database>, repos: ReturnType<typeof integrationsRepositories>) {
  return {
    webhookEndpoints: { ...repos.webhookEndpoints, ...webhookEndpointLocks(trx) },
  }
}
