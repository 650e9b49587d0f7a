import type { PushGateway } from '@tutoring/domain/notifications'

/** Chooses the provider per device: FCM's gateway for `ios` and `android`, Web Push's for `web`. */
export function devicePushGateway(gateways: { mobile: PushGateway; web: PushGateway }): PushGateway {
  return {
    send: (device, notification) => (device.platform === 'web' ? gateways.web : gateways.mobile).send(device, notification),
  }
}
