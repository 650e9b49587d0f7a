import { referenceRoutes } from './catalog.routes'

/** Reference data: subjects, levels, exam boards, countries, languages, policies, prices, notices. */
export const routes = referenceRoutes

/** Reference reads come from the replica when one is configured. */
export const replicaReads = ['GET'] as const
