import type { DeliveryLog } from '../deliveries/deliveryLog';

/** Save-output deliveries as the signed-delivery engine (domain/deliveries/) keeps their log. */
export const OUTPUT_DELIVERIES: DeliveryLog = {
  table: 'output_deliveries',
  ownerColumn: 'connection_id',
  userAgent: 'svc-outputs/1',
};
