/**
 * Every public method of the client, with what it returns, for the OpenAPI drift test. Imports only the
 * client's sources (no Node or jest types), so `openapi.test.ts` compiles it together with the client:
 * `call()` ties each method's declared return type to the field map given for it, so pairing a method
 * with the wrong map does not compile.
 */
import { Svc } from '../../client/src/index.js';
import type { AgentSettings, Run } from '../../client/src/index.js';
import * as S from '../../client/src/schema.js';
import type { Field, Fields } from '../../client/src/schema.js';

/** The element of an array result, else the result itself. */
type Item<R> = R extends readonly (infer E)[] ? E : R;

export interface ClientCall {
  /** `resource.method` */
  name: string;
  /** Calls the method; lists are collected so that they send their first request. */
  invoke(svc: Svc): Promise<unknown>;
  /**
   * Property names of what it returns, each required or optional and maybe nullable (`|null`), per item
   * for lists; `null`: no JSON body.
   */
  fields: Readonly<Record<string, Field>> | null;
  /**
   * For a method that unwraps a list response: the response's keys, the one holding the items, and keys
   * the client handles whether or not the service sends them.
   */
  envelope?: { keys: string[]; items: string; optional?: string[] };
}

function call<R>(
  name: string,
  invoke: (svc: Svc) => Promise<R>,
  fields: Fields<Item<R>> | null,
  envelope?: ClientCall['envelope'],
): ClientCall {
  return { name, invoke, fields, envelope };
}

const ID = '00000000-0000-4000-8000-000000000001';
const ID2 = '00000000-0000-4000-8000-000000000002';
const paged = (items: string) => ({ keys: [items, 'nextCursor'], items });

export const CLIENT_CALLS: ClientCall[] = [
  call('agents.list', (s) => s.agents.list({ limit: 5, projectId: ID2 }).toArray(), S.AGENT_FIELDS, paged('agents')),
  call('agents.create', (s) => s.agents.create({ name: 'a', presetId: 'scripted' }), S.AGENT_FIELDS),
  call('agents.get', (s) => s.agents.get(ID), S.AGENT_FIELDS),
  call('agents.update', (s) => s.agents.update(ID, { name: 'b' }), S.AGENT_FIELDS),
  call('agents.delete', (s) => s.agents.delete(ID), null),
  call(
    'agents.versions',
    (s) => s.agents.versions(ID, { limit: 5 }).toArray(),
    S.AGENT_VERSION_FIELDS,
    paged('versions'),
  ),
  call('agents.getVersion', (s) => s.agents.getVersion(ID, 2), S.AGENT_VERSION_FIELDS),
  call('agents.restoreVersion', (s) => s.agents.restoreVersion(ID, 2), S.AGENT_FIELDS),
  call('agents.definition', (s) => s.agents.definition(ID), S.AGENT_DEFINITION_FIELDS),
  call('agents.presets', (s) => s.agents.presets(), S.PRESET_FIELDS, { keys: ['presets'], items: 'presets' }),
  call('agents.models', (s) => s.agents.models(), S.MODEL_FIELDS, { keys: ['models'], items: 'models' }),
  call('agents.tools', (s) => s.agents.tools(), S.TOOL_FIELDS, { keys: ['tools'], items: 'tools' }),

  call('dataSources.create', (s) => s.dataSources.create({ name: 'f', type: 'file' }), S.DATA_SOURCE_FIELDS),
  call(
    'dataSources.list',
    (s) => s.dataSources.list({ limit: 5 }).toArray(),
    S.DATA_SOURCE_FIELDS,
    paged('dataSources'),
  ),
  call('dataSources.get', (s) => s.dataSources.get(ID), S.DATA_SOURCE_FIELDS),
  call('dataSources.update', (s) => s.dataSources.update(ID, { name: 'g' }), S.DATA_SOURCE_FIELDS),
  call('dataSources.delete', (s) => s.dataSources.delete(ID), null),
  call('dataSources.test', (s) => s.dataSources.test(ID), S.DATA_SOURCE_TEST_FIELDS),
  call(
    'dataSources.upload',
    (s) => s.dataSources.upload(ID, 'a,b\n1,2\n', { filename: 'x.csv', mime: 'text/csv' }),
    S.UPLOADED_SHEETS_FIELDS,
  ),
  call('dataSources.objects', (s) => s.dataSources.objects(ID), S.SOURCE_OBJECT_FIELDS, {
    keys: ['objects'],
    items: 'objects',
  }),
  call('dataSources.object', (s) => s.dataSources.object(ID, 'customers'), S.SOURCE_OBJECT_DETAIL_FIELDS),
  call('dataSources.read', (s) => s.dataSources.read(ID, { object: 'customers', limit: 5 }), S.READ_RESULT_FIELDS),
  call(
    'savedTables.create',
    (s) => s.savedTables.create({ name: 't', dataSourceId: ID, read: { object: 'customers' } }),
    S.SAVED_TABLE_FIELDS,
  ),
  call(
    'savedTables.list',
    (s) => s.savedTables.list({ limit: 5 }).toArray(),
    S.SAVED_TABLE_FIELDS,
    paged('savedTables'),
  ),
  call('savedTables.get', (s) => s.savedTables.get(ID), S.SAVED_TABLE_FIELDS),
  call('savedTables.rows', (s) => s.savedTables.rows(ID, { limit: 5 }), S.SAVED_TABLE_ROWS_FIELDS),
  call('savedTables.refresh', (s) => s.savedTables.refresh(ID), S.SAVED_TABLE_FIELDS),
  call('savedTables.delete', (s) => s.savedTables.delete(ID), null),
  call('evals.create', (s) => s.evals.create(ID, { name: 'e', cases: [] }), S.EVAL_FIELDS),
  call('evals.list', (s) => s.evals.list(ID, { limit: 5 }).toArray(), S.EVAL_FIELDS, paged('evals')),
  call('evals.get', (s) => s.evals.get(ID), S.EVAL_FIELDS),
  call('evals.delete', (s) => s.evals.delete(ID), null),
  call('evals.run', (s) => s.evals.run(ID, { version: 2 }), S.EVAL_RUN_FIELDS),
  call('evals.runs', (s) => s.evals.runs(ID, { limit: 5 }).toArray(), S.EVAL_RUN_FIELDS, paged('evalRuns')),
  call('evals.getRun', (s) => s.evals.getRun(ID), S.EVAL_RUN_FIELDS),
  call('tutor.start', (s) => s.tutor.start({ agentId: ID, topic: 't' }), S.TUTOR_SESSION_FIELDS),
  call('tutor.send', (s) => s.tutor.send(ID, 'hi'), S.TUTOR_REPLY_FIELDS),
  call('tutor.end', (s) => s.tutor.end(ID), S.TUTOR_SESSION_FIELDS),
  call('tutor.get', (s) => s.tutor.get(ID), S.TUTOR_SESSION_FIELDS),
  call('copilot.agent', (s) => s.copilot.agent(ID, { message: 'hi' }), S.AGENT_COPILOT_FIELDS),
  call('copilot.dataSource', (s) => s.copilot.dataSource(ID, { question: 'hi' }), S.DATA_SOURCE_COPILOT_FIELDS),
  call(
    'copilot.agentSessions',
    (s) => s.copilot.agentSessions(ID, { limit: 5 }).toArray(),
    S.COPILOT_SESSION_FIELDS,
    paged('sessions'),
  ),
  call('copilot.agentSession', (s) => s.copilot.agentSession(ID, ID2), S.COPILOT_SESSION_FIELDS),
  call(
    'copilot.dataSourceSessions',
    (s) => s.copilot.dataSourceSessions(ID, { limit: 5 }).toArray(),
    S.COPILOT_SESSION_FIELDS,
    paged('sessions'),
  ),
  call('copilot.dataSourceSession', (s) => s.copilot.dataSourceSession(ID, ID2), S.COPILOT_SESSION_FIELDS),
  call('tutor.list', (s) => s.tutor.list({ limit: 5 }).toArray(), S.TUTOR_SESSION_FIELDS, paged('sessions')),

  call('proposals.create', (s) => s.proposals.create(ID, { fromFeedback: true }), S.PROPOSAL_FIELDS),
  call(
    'proposals.list',
    (s) => s.proposals.list(ID, { status: 'open', limit: 5 }).toArray(),
    S.PROPOSAL_FIELDS,
    paged('proposals'),
  ),
  call('proposals.get', (s) => s.proposals.get(ID), S.PROPOSAL_FIELDS),
  call('proposals.accept', (s) => s.proposals.accept(ID), S.AGENT_FIELDS),
  call('proposals.reject', (s) => s.proposals.reject(ID), S.PROPOSAL_FIELDS),

  call('finance.importFile', (s) => s.finance.importFile({ fileId: ID, format: 'ofx' }), S.FINANCE_IMPORT_FIELDS),
  call('finance.imports', (s) => s.finance.imports({ limit: 5 }).toArray(), S.FINANCE_IMPORT_FIELDS, paged('imports')),
  call('finance.getImport', (s) => s.finance.getImport(ID), S.FINANCE_IMPORT_FIELDS),
  call(
    'finance.transactions',
    (s) => s.finance.transactions({ from: '2026-10-01', q: 'rent' }).toArray(),
    S.FINANCE_TRANSACTION_FIELDS,
    paged('transactions'),
  ),
  call('finance.getTransaction', (s) => s.finance.getTransaction(ID), S.FINANCE_TRANSACTION_FIELDS),
  call(
    'finance.updateTransaction',
    (s) => s.finance.updateTransaction(ID, { note: 'n' }),
    S.FINANCE_TRANSACTION_FIELDS,
  ),
  call('finance.categories', (s) => s.finance.categories().toArray(), S.FINANCE_CATEGORY_FIELDS, paged('categories')),
  call(
    'finance.createCategory',
    (s) => s.finance.createCategory({ name: 'c', kind: 'expense' }),
    S.FINANCE_CATEGORY_FIELDS,
  ),
  call('finance.rules', (s) => s.finance.rules().toArray(), S.FINANCE_RULE_FIELDS, paged('rules')),
  call(
    'finance.createRule',
    (s) => s.finance.createRule({ match: { descriptionContains: 'x' }, categoryId: ID }),
    S.FINANCE_RULE_FIELDS,
  ),
  call('finance.deleteRule', (s) => s.finance.deleteRule(ID), null),
  call('finance.applyRules', (s) => s.finance.applyRules(), S.FINANCE_APPLY_FIELDS),
  call('finance.summary', (s) => s.finance.summary({ groupBy: 'month' }), S.FINANCE_SUMMARY_FIELDS),
  call(
    'finance.reconcile',
    (s) => s.finance.reconcile({ from: '2026-10-01', to: '2026-10-31', fileIds: [ID] }),
    S.RUN_FIELDS,
  ),
  call(
    'finance.report',
    (s) => s.finance.report({ from: '2026-10-01', to: '2026-10-31', kind: 'monthly' }),
    S.RUN_FIELDS,
  ),
  call('finance.export', (s) => s.finance.export({ format: 'xlsx' }), null),
  call('projects.create', (s) => s.projects.create({ name: 'p', description: 'd' }), S.PROJECT_FIELDS),
  call('projects.list', (s) => s.projects.list({ limit: 5 }).toArray(), S.PROJECT_FIELDS, paged('projects')),
  call('projects.get', (s) => s.projects.get(ID), S.PROJECT_FIELDS),
  call('projects.update', (s) => s.projects.update(ID, { description: null }), S.PROJECT_FIELDS),
  call('projects.delete', (s) => s.projects.delete(ID), null),
  call(
    'whatsapp.createAccount',
    (s) =>
      s.whatsapp.createAccount({
        phoneNumberId: '1',
        accessToken: 't',
        appSecret: 'a',
        verifyToken: 'v',
        agentId: ID2,
      }),
    S.WHATSAPP_ACCOUNT_FIELDS,
  ),
  call(
    'whatsapp.accounts',
    (s) => s.whatsapp.accounts({ limit: 5 }).toArray(),
    S.WHATSAPP_ACCOUNT_FIELDS,
    paged('accounts'),
  ),
  call('whatsapp.updateAccount', (s) => s.whatsapp.updateAccount(ID, { agentId: ID2 }), S.WHATSAPP_ACCOUNT_FIELDS),
  call('whatsapp.deleteAccount', (s) => s.whatsapp.deleteAccount(ID), null),
  call(
    'whatsapp.conversations',
    (s) => s.whatsapp.conversations({ accountId: ID, limit: 5 }).toArray(),
    S.WHATSAPP_CONVERSATION_FIELDS,
    paged('conversations'),
  ),
  call('whatsapp.conversation', (s) => s.whatsapp.conversation(ID), S.WHATSAPP_CONVERSATION_DETAIL_FIELDS),
  call('whatsapp.redeliver', (s) => s.whatsapp.redeliver(ID, ID2), S.WHATSAPP_REDELIVERY_FIELDS),
  call('projects.members', (s) => s.projects.members(ID).toArray(), S.PROJECT_MEMBER_FIELDS, paged('members')),
  call('projects.setMember', (s) => s.projects.setMember(ID, ID2, { role: 'editor' }), S.PROJECT_MEMBER_FIELDS),
  call('projects.removeMember', (s) => s.projects.removeMember(ID, ID2), null),
  call('workspace.setMember', (s) => s.workspace.setMember(ID, { role: 'admin' }), S.WORKSPACE_MEMBER_FIELDS),

  call('flows.create', (s) => s.flows.create({ templateId: 'approval-gated-http', name: 'f' }), S.FLOW_FIELDS),
  call('flows.list', (s) => s.flows.list({ limit: 5, projectId: ID2 }).toArray(), S.FLOW_FIELDS, paged('flows')),
  call('flows.get', (s) => s.flows.get(ID), S.FLOW_FIELDS),
  call('flows.update', (s) => s.flows.update(ID, { status: 'paused' }), S.FLOW_FIELDS),
  call('flows.delete', (s) => s.flows.delete(ID), null),
  call('flows.templates', (s) => s.flows.templates(), S.FLOW_TEMPLATE_FIELDS, {
    keys: ['templates'],
    items: 'templates',
  }),
  call('flows.run', (s) => s.flows.run(ID, { input: { a: 1 } }), S.FLOW_RUN_FIELDS),
  call('flows.regenerateWebhookToken', (s) => s.flows.regenerateWebhookToken(ID), S.WEBHOOK_TOKEN_FIELDS),
  call('flowRuns.list', (s) => s.flowRuns.list(ID, { limit: 5 }).toArray(), S.FLOW_RUN_FIELDS, paged('flowRuns')),
  call(
    'flowRuns.listAll',
    (s) => s.flowRuns.listAll({ status: 'waiting_approval', limit: 5 }).toArray(),
    S.FLOW_RUN_FIELDS,
    paged('flowRuns'),
  ),
  call('flowRuns.get', (s) => s.flowRuns.get(ID), S.FLOW_RUN_FIELDS),
  call('flowRuns.approve', (s) => s.flowRuns.approve(ID, { approved: true, comment: 'ok' }), S.FLOW_RUN_FIELDS),
  call('flowRuns.cancel', (s) => s.flowRuns.cancel(ID), S.FLOW_RUN_FIELDS),

  call('priceLists.create', (s) => s.priceLists.create({ name: 'p', isDefault: true }), S.PRICE_LIST_FIELDS),
  call('priceLists.list', (s) => s.priceLists.list({ limit: 5 }).toArray(), S.PRICE_LIST_FIELDS, paged('priceLists')),
  call('priceLists.get', (s) => s.priceLists.get(ID), S.PRICE_LIST_FIELDS),
  call('priceLists.update', (s) => s.priceLists.update(ID, { isDefault: false }), S.PRICE_LIST_FIELDS),
  call('priceLists.delete', (s) => s.priceLists.delete(ID), null),
  call('priceLists.rules', (s) => s.priceLists.rules(ID).toArray(), S.PRICING_RULE_FIELDS, paged('rules')),
  call(
    'priceLists.createRule',
    (s) => s.priceLists.createRule(ID, { match: { agentId: ID2 }, markupPercent: 20, priority: 1 }),
    S.PRICING_RULE_FIELDS,
  ),
  call('priceLists.updateRule', (s) => s.priceLists.updateRule(ID, { perRunUsd: null }), S.PRICING_RULE_FIELDS),
  call('priceLists.deleteRule', (s) => s.priceLists.deleteRule(ID), null),
  call(
    'priceLists.quote',
    (s) => s.priceLists.quote(ID, { agentId: ID2, inputTokens: 10, outputTokens: 5 }),
    S.QUOTE_FIELDS,
  ),

  call(
    'files.upload',
    (s) => s.files.upload(new Uint8Array([1]), { filename: 'a.txt', mime: 'text/plain' }),
    S.FILE_FIELDS,
  ),
  call('files.list', (s) => s.files.list({ folderId: ID2 }).toArray(), S.FILE_FIELDS, paged('files')),
  call('files.get', (s) => s.files.get(ID), S.FILE_FIELDS),
  call('files.content', (s) => s.files.content(ID), null),
  call('files.update', (s) => s.files.update(ID, { filename: 'b.txt', folderId: null }), S.FILE_FIELDS),
  call('files.delete', (s) => s.files.delete(ID), null),
  call('folders.create', (s) => s.folders.create({ name: 'f', parentId: ID2 }), S.FOLDER_FIELDS),
  call(
    'folders.list',
    (s) => s.folders.list({ parentId: 'root', limit: 5 }).toArray(),
    S.FOLDER_FIELDS,
    paged('folders'),
  ),
  call('folders.update', (s) => s.folders.update(ID, { name: 'g', parentId: null }), S.FOLDER_FIELDS),
  call('folders.delete', (s) => s.folders.delete(ID), null),

  call('runs.create', (s) => s.runs.create({ agentId: ID, input: { fileIds: [ID2] } }), S.RUN_FIELDS),
  call('runs.get', (s) => s.runs.get(ID), S.RUN_FIELDS),
  call(
    'runs.list',
    (s) => s.runs.list({ status: 'failed', agentId: ID2, limit: 5 }).toArray(),
    S.RUN_FIELDS,
    paged('runs'),
  ),
  call('runs.output', (s) => s.runs.output(ID), S.RUN_OUTPUT_FIELDS),
  call('runs.steps', (s) => s.runs.steps(ID), S.RUN_STEP_FIELDS, paged('steps')),
  call('runs.stepPages', (s) => s.runs.stepPages(ID, { limit: 5 }).toArray(), S.RUN_STEP_FIELDS, paged('steps')),
  call('runs.input', (s) => s.runs.input(ID, { answer: 'x', actionId: 'a' }), S.RUN_FIELDS),
  // each names its action: without one the client reads the run first, and the recorder's 404 ends the call there
  call('runs.approve', (s) => s.runs.approve(ID, { approved: true, actionId: 'a' }), S.RUN_FIELDS),
  call('runs.review', (s) => s.runs.review(ID, { accept: true, correctedOutput: 1, actionId: 'a' }), S.RUN_FIELDS),
  call('runs.feedback', (s) => s.runs.feedback(ID, { rating: 5 }), S.FEEDBACK_FIELDS),
  call('runs.cancel', (s) => s.runs.cancel(ID), S.RUN_FIELDS),
  call('runs.share', (s) => s.runs.share(ID), S.RUN_SHARE_FIELDS),
  call('runs.unshare', (s) => s.runs.unshare(ID), null),
  call('runs.dashboard', (s) => s.runs.dashboard(ID), S.RUN_DASHBOARD_FIELDS),
  call(
    'runs.artifacts',
    (s) => s.runs.artifacts(ID, { limit: 5 }).toArray(),
    S.RUN_ARTIFACT_FIELDS,
    paged('artifacts'),
  ),
  call('runs.report', (s) => s.runs.report(ID), S.RUN_REPORT_FIELDS),
  call('runs.inputFiles', (s) => s.runs.inputFiles({ limit: 5 }).toArray(), S.INPUT_FILE_FIELDS, paged('files')),
  call(
    'runs.localBatches',
    (s) => s.runs.localBatches({ limit: 5 }).toArray(),
    S.LOCAL_RUN_BATCH_FIELDS,
    paged('batches'),
  ),
  call('runs.localBatch', (s) => s.runs.localBatch(ID), S.LOCAL_RUN_BATCH_DETAIL_FIELDS),
  call(
    'localRuns.report',
    (s) =>
      s.localRuns.report({
        agentId: ID,
        runs: [
          { status: 'succeeded', output: 1, startedAt: '2026-01-01T00:00:00Z', completedAt: '2026-01-01T00:00:01Z' },
        ],
      }),
    S.LOCAL_RUN_REPORT_FIELDS,
  ),
  // follows the event stream, then polls runs.get: both requests are checked, the run against the last
  call('runs.wait', (s) => s.runs.wait(ID, { pollMs: 1, timeoutMs: 5000 }), S.RUN_FIELDS),

  call(
    'webhooks.create',
    (s) => s.webhooks.create({ url: 'https://e.com', events: ['run.failed'], secret: 'x'.repeat(16) }),
    S.WEBHOOK_FIELDS,
  ),
  // follows nextCursor when the service pages this list; a response without one is the only page
  call('webhooks.list', (s) => s.webhooks.list(), S.WEBHOOK_FIELDS, {
    keys: ['webhooks'],
    items: 'webhooks',
    optional: ['nextCursor'],
  }),
  call(
    'webhooks.deliveries',
    (s) => s.webhooks.deliveries(ID).toArray(),
    S.WEBHOOK_DELIVERY_FIELDS,
    paged('deliveries'),
  ),
  call('webhooks.redeliver', (s) => s.webhooks.redeliver(ID, ID), S.WEBHOOK_DELIVERY_FIELDS),
  call('webhooks.delete', (s) => s.webhooks.delete(ID), null),

  call(
    'outputConnections.create',
    (s) => s.outputConnections.create({ name: 'o', type: 'http', url: 'https://e.com', secret: 'x'.repeat(16) }),
    S.OUTPUT_CONNECTION_FIELDS,
  ),
  call(
    'outputConnections.list',
    (s) => s.outputConnections.list({ limit: 5 }).toArray(),
    S.OUTPUT_CONNECTION_FIELDS,
    paged('outputConnections'),
  ),
  call('outputConnections.get', (s) => s.outputConnections.get(ID), S.OUTPUT_CONNECTION_FIELDS),
  call(
    'outputConnections.deliveries',
    (s) => s.outputConnections.deliveries(ID, { limit: 5 }).toArray(),
    S.OUTPUT_DELIVERY_FIELDS,
    paged('deliveries'),
  ),
  call('outputConnections.redeliver', (s) => s.outputConnections.redeliver(ID, ID), S.OUTPUT_DELIVERY_FIELDS),
  call('outputConnections.delete', (s) => s.outputConnections.delete(ID), null),

  call('usage.get', (s) => s.usage.get({ from: '2024-01-01', to: '2024-01-31', priceListId: ID }), S.USAGE_FIELDS),
  call('usage.balance', (s) => s.usage.balance(), S.BALANCE_FIELDS),

  call('apiKeys.create', (s) => s.apiKeys.create({ name: 'k', scopes: ['runs:read'] }), S.CREATED_API_KEY_FIELDS),
  call('apiKeys.list', (s) => s.apiKeys.list(), S.API_KEY_FIELDS, paged('apiKeys')),
  call('apiKeys.setSpendCap', (s) => s.apiKeys.setSpendCap(ID, 10), S.API_KEY_FIELDS),
  call('apiKeys.revoke', (s) => s.apiKeys.revoke(ID), null),
  call(
    'audit.list',
    (s) => s.audit.list({ limit: 5, resourceType: 'api_key' }).toArray(),
    S.AUDIT_ENTRY_FIELDS,
    paged('entries'),
  ),
  call('audit.export', (s) => s.audit.export({ actorId: ID }), null),

  call('knowledge.create', (s) => s.knowledge.create({ title: 't', text: 'x', agentIds: [ID2] }), S.KNOWLEDGE_FIELDS),
  call(
    'knowledge.list',
    (s) => s.knowledge.list({ agentId: ID2, projectId: ID, limit: 5 }).toArray(),
    S.KNOWLEDGE_FIELDS,
    paged('knowledge'),
  ),
  call('knowledge.get', (s) => s.knowledge.get(ID), S.KNOWLEDGE_FIELDS),
  call('knowledge.update', (s) => s.knowledge.update(ID, { title: 'u' }), S.KNOWLEDGE_FIELDS),
  call('knowledge.delete', (s) => s.knowledge.delete(ID), null),
  call('knowledge.search', (s) => s.knowledge.search({ q: 'x', agentId: ID }), S.KNOWLEDGE_SEARCH_RESULT_FIELDS, {
    keys: ['results'],
    items: 'results',
  }),
  call('apps.create', (s) => s.apps.create({ slug: 'my-app', agentId: ID2, templateId: 'summarizer' }), S.APP_FIELDS),
  call('apps.list', (s) => s.apps.list({ limit: 5 }).toArray(), S.APP_FIELDS, paged('apps')),
  call('apps.get', (s) => s.apps.get(ID), S.APP_FIELDS),
  call('apps.update', (s) => s.apps.update(ID, { name: 'n' }), S.APP_FIELDS),
  call('apps.delete', (s) => s.apps.delete(ID), null),
  call('apps.publish', (s) => s.apps.publish(ID), S.APP_FIELDS),
  call('apps.pause', (s) => s.apps.pause(ID), S.APP_FIELDS),
  call('apps.usage', (s) => s.apps.usage(ID, { from: '2026-01-01', to: '2026-01-31' }), S.APP_USAGE_FIELDS),
  call('apps.templates', (s) => s.apps.templates(), S.APP_TEMPLATE_FIELDS, { keys: ['templates'], items: 'templates' }),
  call('apps.addDomain', (s) => s.apps.addDomain(ID, 'app.example.com'), S.APP_DOMAIN_FIELDS),
  call('apps.verifyDomain', (s) => s.apps.verifyDomain(ID, 'app.example.com'), S.APP_DOMAIN_CHECK_FIELDS),
  call('apps.removeDomain', (s) => s.apps.removeDomain(ID, 'app.example.com'), null),
  call('phone.voices', (s) => s.phone.voices(), S.PHONE_VOICE_FIELDS, { keys: ['voices'], items: 'voices' }),
  call('phone.models', (s) => s.phone.models(), S.PHONE_MODEL_FIELDS, { keys: ['models'], items: 'models' }),
  call(
    'phone.createNumber',
    (s) =>
      s.phone.createNumber({
        e164: '+14155550100',
        provider: 'twilio',
        agentId: ID2,
        credentials: { accountSid: 'AC1', authToken: 't' },
      }),
    S.CREATED_PHONE_NUMBER_FIELDS,
  ),
  call(
    'phone.listNumbers',
    (s) => s.phone.listNumbers({ limit: 5 }).toArray(),
    S.PHONE_NUMBER_FIELDS,
    paged('numbers'),
  ),
  call('phone.getNumber', (s) => s.phone.getNumber(ID), S.PHONE_NUMBER_FIELDS),
  call('phone.updateNumber', (s) => s.phone.updateNumber(ID, { agentId: ID2 }), S.PHONE_NUMBER_FIELDS),
  call('phone.deleteNumber', (s) => s.phone.deleteNumber(ID), null),
  call('phone.rotateSecret', (s) => s.phone.rotateSecret(ID), S.PHONE_SECRET_FIELDS),
  call(
    'phone.listCalls',
    (s) => s.phone.listCalls({ numberId: ID, limit: 5 }).toArray(),
    S.PHONE_CALL_FIELDS,
    paged('calls'),
  ),
  call('phone.getCall', (s) => s.phone.getCall(ID), S.PHONE_CALL_FIELDS),
  call('phone.placeCall', (s) => s.phone.placeCall({ numberId: ID, to: '+14155550101' }), S.PHONE_CALL_FIELDS),
  call(
    'phone.getCalendar',
    (s) => s.phone.getCalendar({ from: '2030-01-07', to: '2030-01-13' }),
    S.PHONE_CALENDAR_FIELDS,
  ),
  call(
    'phone.setCalendar',
    (s) =>
      s.phone.setCalendar({
        timezone: 'UTC',
        weeklyHours: [{ day: 'mon', start: '09:00', end: '17:00' }],
        slotMinutes: 30,
      }),
    S.PHONE_CALENDAR_FIELDS,
  ),
  call('phone.cancelBooking', (s) => s.phone.cancelBooking(ID), null),
  call(
    'phone.createAgent',
    (s) => s.phone.createAgent({ name: 'Desk', presetId: 'phone-receptionist' }),
    S.PHONE_AGENT_FIELDS,
  ),
  call('phone.listAgents', (s) => s.phone.listAgents({ limit: 5 }).toArray(), S.PHONE_AGENT_FIELDS, paged('agents')),
  call('phone.getAgent', (s) => s.phone.getAgent(ID), S.PHONE_AGENT_FIELDS),
  call('phone.updateAgent', (s) => s.phone.updateAgent(ID, { name: 'Desk 2' }), S.PHONE_AGENT_FIELDS),
  call('phone.deleteAgent', (s) => s.phone.deleteAgent(ID), null),
  call('search.query', (s) => s.search.query({ q: 'x', types: ['runs', 'knowledge'] }), S.SEARCH_RESULT_FIELDS, {
    keys: ['results'],
    items: 'results',
  }),
];

/**
 * Operations of the OpenAPI document that no client method calls, each with why: they answer without an
 * API key (a session, a token in the path, nothing), or are the operator's. A path ending in `*` names every
 * operation under it.
 */
export const NOT_IN_CLIENT: Array<[string, string]> = [
  ['* /v1/console/*', "the console's session routes; the client holds an API key"],
  ['* /approvals/*', 'one-click links of approval e-mails, opened in a browser'],
  ['* /hooks/*', "providers' and flow triggers' inbound calls, authenticated by their token"],
  ['* /shared/*', 'shared run dashboards, public by their token'],
  ['* /apps/*', "published apps' public pages"],
  ['GET /healthz', "the operator's probe"],
  ['GET /readyz', "the operator's probe"],
  ['GET /v1/openapi.json', 'the document itself'],
];

/** Methods on the resource prototypes that are not public API (TypeScript `private`). */
export const INTERNAL_METHODS = ['runs.waitOnStream', 'runs.waitByPolling'];

/**
 * Nested objects of the responses: `[operation, path to the object in the response schema, fields]`.
 * `[]` in a path steps into an array's items.
 */
export const NESTED: Array<[string, string[], Readonly<Record<string, Field>>]> = [
  ['GET /v1/runs/{id}', ['usage'], S.RUN_USAGE_FIELDS],
  ['GET /v1/whatsapp/conversations/{id}', ['messages', '[]'], S.WHATSAPP_MESSAGE_FIELDS],
  ['GET /v1/runs/{id}', ['error'], S.RUN_ERROR_FIELDS],
  ['GET /v1/agents/{id}', ['settings'], S.AGENT_SETTINGS_FIELDS],
  ['GET /v1/agents/{id}/definition', ['settings'], S.AGENT_SETTINGS_FIELDS],
  ['GET /v1/agents/{id}/definition', ['savedReads', '[]'], S.SAVED_READ_FIELDS],
  ['GET /v1/presets', ['presets', '[]', 'settings'], S.AGENT_SETTINGS_FIELDS],
  ['GET /v1/models', ['models', '[]', 'pricing'], S.MODEL_PRICING_FIELDS],
  ['POST /v1/local-runs', ['runs', '[]'], S.RECORDED_LOCAL_RUN_FIELDS],
  ['GET /v1/phone/calls/{id}', ['transcript', '[]'], S.PHONE_TRANSCRIPT_FIELDS],
  ['GET /v1/phone/calendar', ['bookings', '[]'], S.PHONE_BOOKING_FIELDS],
  ['GET /v1/usage', ['byDay', '[]'], S.USAGE_DAY_FIELDS],
  ['GET /v1/usage', ['byAgent', '[]'], S.USAGE_AGENT_FIELDS],
  ['GET /v1/usage/balance', ['entitlements'], S.ENTITLEMENTS_FIELDS],
  ['PATCH /v1/pricing-rules/{id}', ['match'], S.PRICING_MATCH_FIELDS],
  ['GET /v1/knowledge/{id}', ['source'], S.KNOWLEDGE_SOURCE_FIELDS],
  ['GET /v1/data-sources/{id}', ['config'], S.DATA_SOURCE_CONFIG_FIELDS],
  ['GET /v1/data-sources/{id}/objects/{name}', ['columns', '[]'], S.SOURCE_COLUMN_FIELDS],
  ['GET /v1/evals/{id}', ['cases', '[]'], S.EVAL_CASE_FIELDS],
  ['GET /v1/eval-runs/{id}', ['results', '[]'], S.EVAL_RESULT_FIELDS],
  ['GET /v1/tutor/sessions/{id}', ['messages', '[]'], S.CONVERSATION_MESSAGE_FIELDS],
  ['GET /v1/proposals/{id}', ['changes'], S.PROPOSAL_CHANGES_FIELDS],
  ['GET /v1/webhooks/{id}/deliveries', ['deliveries', '[]', 'attempts', '[]'], S.WEBHOOK_ATTEMPT_FIELDS],
  ['GET /v1/output-connections/{id}/deliveries', ['deliveries', '[]', 'attempts', '[]'], S.OUTPUT_ATTEMPT_FIELDS],
  ['GET /v1/apps/{id}', ['domains', '[]'], S.APP_DOMAIN_FIELDS],
  ['GET /v1/apps/{id}', ['form', 'fields', '[]'], S.APP_FORM_FIELD_FIELDS],
];

export interface Recorded {
  method: string;
  path: string;
}

/**
 * Runs one call against a `fetch` that records the request and answers 404 (so every method settles
 * after its first request, and `runs.wait` after its stream attempt and one poll).
 */
export async function recordRequests(entry: ClientCall): Promise<Recorded[]> {
  const recorded: Recorded[] = [];
  const svc = new Svc({
    apiKey: 'svc_live_test',
    baseUrl: 'http://127.0.0.1:9',
    maxRetries: 0,
    fetch: async (url, init) => {
      recorded.push({ method: String(init.method), path: new URL(url).pathname });
      const body = { error: { code: 'not_found', message: 'recorded', requestId: 'rec' } };
      return new Response(JSON.stringify(body), { status: 404, headers: { 'content-type': 'application/json' } });
    },
  });
  await entry.invoke(svc).catch(() => undefined);
  return recorded;
}

// The maps cannot drift from the types: each of these would compile if they could, and then the
// directives themselves are errors ("Unused '@ts-expect-error' directive").
const { completedAt: _dropped, ...runMissingOne } = S.RUN_FIELDS;
// @ts-expect-error a map lacking a key of its type does not compile
void (runMissingOne satisfies Fields<Run>);
// @ts-expect-error a map with a key its type lacks does not compile
void ({ ...S.RUN_FIELDS, extra: 'required' } satisfies Fields<Run>);
// @ts-expect-error an optional key marked required does not compile
void ({ ...S.AGENT_SETTINGS_FIELDS, approvalTools: 'required' } satisfies Fields<AgentSettings>);
// @ts-expect-error a key whose type excludes null marked nullable does not compile
void ({ ...S.RUN_FIELDS, metadata: 'required|null' } satisfies Fields<Run>);
// @ts-expect-error a nullable key marked non-null does not compile
void ({ ...S.RUN_FIELDS, startedAt: 'required' } satisfies Fields<Run>);
// @ts-expect-error a method paired with another type's map does not compile
call('runs.get', (s) => s.runs.get(ID), S.AGENT_FIELDS);
