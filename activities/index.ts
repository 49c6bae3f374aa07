import type { Config } from '../api/config';
import type { Orm } from '../db/orm';
import type { ModelRegistry } from './models/registry';
import { createRunActivities } from './runs';
import type { ToolRegistry } from './tools/registry';

export interface ActivityDeps {
  config: Config;
  orm: Orm;
  models: ModelRegistry;
  tools: ToolRegistry;
}

/** Every activity the worker registers, built from its dependencies (STYLE: activities-dependency-injection). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createRunActivities({ orm: deps.orm, models: deps.models, tools: deps.tools }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
