export { ukPostcodes } from './postcodes'
