import { repositoryPart } from '../db/repository-bag'
import { pushDeliveryLog } from './push-delivery-log.repository'

/** The notifications context's part of the repository bag. */
export const notificationsRepositories = repositoryPart({
  outside: (db) => ({
    pushDeliveries: pushDeliveryLog(db),
  }),
  names: { pushDeliveries: true },
})
