// The ORO balance in the header, refreshed after a claim.
export { balanceKey, useOroBalance } from "./use-oro-balance";
