/**
 * `ponder:registry` for unit tests of the handlers (vitest.config.ts aliases it): `ponder.on` keeps each indexing
 * function by its event name, so a test can call the real handlers with events and a store of its own.
 */
export type IndexingFunction = (args: { event: unknown; context: unknown }) => Promise<void>;

export const indexingFunctions = new Map<string, IndexingFunction>();

export const ponder = {
  on(name: string, indexingFunction: IndexingFunction): void {
    indexingFunctions.set(name, indexingFunction);
  },
};
