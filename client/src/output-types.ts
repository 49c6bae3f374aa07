/** Shapes of save-output connections and run dashboards (the service's docs/api/output-connections.md and docs/api/runs.md). */
import type { RunStatus } from './types.js';

/** A save-output connection; its secret is write-only and never returned. */
export interface OutputConnection {
  id: string;
  name: string;
  type: 'http' | 'saved_table';
  url: string | null;
  savedTableId: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * `client.outputConnections.create`: an `http` connection (a public URL and a 16..256-character secret that
 * signs every delivery); `saved_table`: a saved table of the workspace, each output appended as a row.
 */
export type OutputConnectionCreateParams =
  | { name: string; type: 'http'; url: string; secret: string }
  | { name: string; type: 'saved_table'; savedTableId: string };

/** One attempt at a delivery: the receiver's HTTP status, or the error. */
export interface OutputDeliveryAttempt {
  at: string;
  statusCode: number | null;
  error: string | null;
}

/** One output sent to a connection, with every attempt made so far. */
export interface OutputDelivery {
  id: string;
  runId: string | null;
  flowRunId: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: OutputDeliveryAttempt[];
  createdAt: string;
}

/** The body a connection receives, signed like a webhook delivery (`verifyWebhookSignature` checks it). */
export interface OutputDeliveryBody {
  id: string;
  type: 'output';
  connectionId: string;
  runId: string | null;
  flowRunId: string | null;
  output: unknown;
}

/** `client.runs.share`: the public link of a run's dashboard and its token, shown once. */
export interface RunShare {
  url: string;
  token: string;
}

/** A run's dashboard: what its shared link shows, and whether that link exists now. */
export interface RunDashboard {
  id: string;
  status: RunStatus;
  output: unknown;
  steps: Array<{ index: number; type: string; status: string; startedAt: string; completedAt: string | null }>;
  completedAt: string | null;
  shared: boolean;
}

/** A file a run produced (`runs.artifacts`); download it with `files.content(fileId)`. */
export interface RunArtifact {
  fileId: string;
  name: string;
  mime: string;
  size: number;
  /** The index of the step that wrote it. */
  step: number | null;
  createdAt: string;
}

/** Who answered a gate of a run: a user of the console or an API key. */
export interface GateAnswerer {
  type: 'user' | 'api_key';
  id: string;
  name: string | null;
}

/** One step of a run report's timeline; gates carry what was asked, the answer, who gave it and when. */
export interface RunReportStep {
  index: number;
  type: string;
  status: string;
  startedAt: string;
  completedAt: string | null;
  tool?: string;
  error?: string;
  gate?: {
    actionId: string | null;
    asked: Record<string, unknown>;
    answer: unknown;
    answeredBy: GateAnswerer | null;
    answeredAt: string | null;
  };
}

/** `runs.report`: a run summarised for a person. */
export interface RunReport {
  run: { id: string; status: string; createdAt: string; startedAt: string | null; completedAt: string | null };
  agent: { id: string; name: string | null; version: number };
  timeline: RunReportStep[];
  output: unknown;
  error: { code: string; message: string } | null;
  usage: { inputTokens: number; outputTokens: number; costUsd: number };
  artifacts: RunArtifact[];
}
