export * from './coupon'
export * from './price-breakdown'
export * from './refund'
