/** The baseline workflows' activities: they do nothing, so what remains is Temporal's own cost. */
export const bareActivities = {
  async step(_index: number): Promise<void> {
    // nothing
  },
};

export type BareActivities = typeof bareActivities;
