import path from "node:path";
import type { Hex } from "viem";

/**
 * A chain's identity as the indexer's storage sees it: the chain id plus the hash of the block that created
 * the ORO token. A restarted local chain mines that block again at another time, so its hash differs and
 * the indexer gets a fresh schema (PostgreSQL) or data folder (PGlite) instead of serving the old chain's
 * rows. On World Chain the block never changes, so restarts of the indexer resume where they stopped.
 */
export function chainIdentity(chainId: number, tokenCreationBlockHash: Hex): string {
  if (!/^0x[0-9a-fA-F]{64}$/.test(tokenCreationBlockHash)) {
    throw new Error(`not a block hash: ${tokenCreationBlockHash}`);
  }
  return `${chainId}_${tokenCreationBlockHash.slice(2, 10).toLowerCase()}`;
}

/**
 * The database schema for a chain identity and an indexing fingerprint (see indexing-fingerprint.ts; Ponder
 * allows at most 45 characters).
 */
export function schemaFor(prefix: string, identity: string, fingerprint: string): string {
  const schema = `${prefix}_${identity}_${fingerprint}`;
  if (schema.length > 45) throw new Error(`schema name ${schema} is longer than Ponder's 45 characters`);
  return schema;
}

/** The PGlite data folder for a chain identity. */
export function pgliteDirectoryFor(root: string, identity: string): string {
  return path.join(root, identity);
}
