import { repositoryPart } from '../db/repository-bag'
import { integrationEvents } from './integration-events.repository'
import { webhookDeliveryRepository } from './webhook-delivery.repository'
import { webhookEndpointLocks, webhookEndpointRepository } from './webhook-endpoint.repository'

/** The integrations context's part of the repository bag, and in a transaction the row locks its repositories take there. */
export const integrationsRepositories = repositoryPart({
  outside: (db) => ({
    webhookEndpoints: webhookEndpointRepository(db),
    webhookDeliveries: webhookDeliveryRepository(db),
    integrationEvents: integrationEvents(db),
  }),
  locks: (trx, repos) => ({
    webhookEndpoints: { ...repos.webhookEndpoints, ...webhookEndpointLocks(trx) },
  }),
  names: { webhookEndpoints: true, webhookDeliveries: true, integrationEvents: true },
})
