import { repositoryPart } from '../db/repository-bag'
import { webhookEventLog } from './webhook-event-log.repository'

/** The webhooks context's part of the repository bag. */
export const webhooksRepositories = repositoryPart({
  outside: (db) => ({
    webhookEvents: webhookEventLog(db),
  }),
  names: { webhookEvents: true },
})
