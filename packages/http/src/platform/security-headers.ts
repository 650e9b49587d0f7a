import { secureHeaders } from 'hono/secure-headers'

/** CONTRACT §9: HSTS, frame denial, nosniff and X-XSS-Protection on every answer. */
export const securityHeaders = () =>
  secureHeaders({
    strictTransportSecurity: 'max-age=63072000; includeSubDomains',
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    xXssProtection: '1; mode=block',
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
    removePoweredBy: true,
  })
