export { rowToUser } from './user.repository'
