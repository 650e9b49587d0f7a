export { rowToTeach } from './teach.repository'
