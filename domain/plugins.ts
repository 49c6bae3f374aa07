import type { Orm } from '../db/orm';
import type { Config } from '../platform/config';
import type { ChannelRegistry } from './conversations/channelRegistry';
import { conversationOutboxCalls } from './conversations/outboxCalls';
import { evalOutboxCalls } from './evals/outboxCalls';
import { registerFinanceTools } from './finance/tools';
import { flowOutboxCalls } from './flows/outboxCalls';
import { registerKnowledgeTools } from './knowledge/searchTool';
import { registerCalendarTools } from './phone/calendarTools';
import { runOutboxCalls } from './runs/outboxCalls';
import { registerSavedTableTools } from './savedTables/rowsTool';
import { outboxCalls, type OutboxRegistry } from './shared/outbox/calls';
import type { ToolDeps, ToolRegistry } from './tools/registry';
import { registerWhatsApp } from './whatsapp/adapter';

/**
 * Every area's plug-ins into the mechanisms that must not know them (docs/architecture.md, "Registries"),
 * in one list for the composition roots (api/app.ts and worker/main.ts, on which the test and bench
 * harnesses build). No area imports this file.
 */

/** The areas' outbox calls, into the process's relay (or the registry given). */
export function registerOutboxCalls(registry: OutboxRegistry = outboxCalls): void {
  for (const handlers of [runOutboxCalls, evalOutboxCalls, flowOutboxCalls, conversationOutboxCalls]) {
    registry.register(handlers);
  }
}

/** The areas' tools, in the catalogue's order after `ask_user` and `http_request`. */
export function registerAreaTools(tools: ToolRegistry, deps: ToolDeps): ToolRegistry {
  registerKnowledgeTools(tools, deps);
  registerSavedTableTools(tools, deps);
  registerCalendarTools(tools, deps);
  registerFinanceTools(tools, deps);
  return tools;
}

/** The asynchronous channels' adapters. */
export function registerChannels(channels: ChannelRegistry, deps: { orm: Orm; config: Config }): ChannelRegistry {
  registerWhatsApp(channels, deps);
  return channels;
}
