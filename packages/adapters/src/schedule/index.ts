export { scheduleRepositories } from './schedule.repositories'
