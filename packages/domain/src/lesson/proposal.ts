import { HOUR_MS, RESCHEDULE_PROPOSAL_TTL_HOURS } from '../shared'

/** CONTRACT.md §6: a proposal expires at the earlier of 48 h after it was made and the original start. */
export const proposalExpiresAt = (proposedAt: Date, originalStart: Date): Date =>
  new Date(Math.min(proposedAt.getTime() + RESCHEDULE_PROPOSAL_TTL_HOURS * HOUR_MS, originalStart.getTime()))

export const isProposalExpired = (expiresAt: Date, now: Date): boolean => now.getTime() >= expiresAt.getTime()
