// The worker bundles this file: it exports workflow functions only (STYLE).
export { runWorkflow } from './runWorkflow';
export { webhookDeliveryWorkflow, webhookFanoutWorkflow } from './webhookDelivery';
export { evalWorkflow } from './evalWorkflow';
export { runOutputsWorkflow, saveOutputWorkflow } from './outputDelivery';
