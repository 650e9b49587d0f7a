/**
 * What the server's shutdown tells the app. While draining, `/readyz` answers 503 (so a
 * load balancer stops sending) and every answer closes its connection (so keep-alive
 * clients reconnect elsewhere), while requests already under way finish.
 */
export type Lifecycle = { draining: boolean }
