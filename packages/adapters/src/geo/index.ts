export { ukPostcodes } from './postcodes'
export { tablePostcodeDirectory } from './postcode-table'
export { postcodesIoDirectory } from './postcodes-io'
