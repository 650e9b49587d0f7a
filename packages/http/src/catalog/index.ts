import { referenceRoutes } from './catalog.routes'

/** Reference data: subjects, levels, exam boards, countries, languages, policies, prices, notices. */
export const routes = referenceRoutes
