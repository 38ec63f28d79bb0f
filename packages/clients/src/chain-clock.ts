/** What reading the chain's clock needs of a viem client (any viem version's public client has it). */
export interface BlockReader {
  getBlock(args: { blockTag: "pending" | "latest" }): Promise<{ timestamp: bigint }>;
}

/**
 * The chain's clock, in unix seconds: the time its next block would get (the pending block's). The latest
 * block's time lags it by however long no block came, minutes on a quiet local chain moved ahead of this
 * machine. An RPC that does not serve the pending block gives the latest's.
 */
export async function chainClockSeconds(client: BlockReader): Promise<number> {
  const pending = await client.getBlock({ blockTag: "pending" }).catch(() => null);
  return Number((pending ?? (await client.getBlock({ blockTag: "latest" }))).timestamp);
}
