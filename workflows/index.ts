// The worker bundles this file: it exports workflow functions only (STYLE).
export { runWorkflow } from './runWorkflow';
export { webhookDeliveryWorkflow, webhookFanoutWorkflow } from './webhookDelivery';
export { savedTableRefreshWorkflow } from './savedTableRefresh';
export { evalWorkflow } from './evalWorkflow';
export { flowWorkflow } from './flowWorkflow';
export { flowScheduleWorkflow } from './flowScheduleWorkflow';
export { outputRedeliveryWorkflow, runOutputsWorkflow, saveOutputWorkflow } from './outputDelivery';
export { phoneCallWorkflow } from './phoneCall';
export { conversationWorkflow } from './conversationWorkflow';
export { retentionWorkflow } from './retentionWorkflow';
