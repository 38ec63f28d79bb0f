// The claim screen (src/routes/claim.tsx), and the claim state every screen of the shell shares.
export { ClaimScreen } from "./ClaimScreen";
export { amountPerMintQuery } from "./amount-per-mint";
export { ClaimProvider, useClaim } from "./claim-context";
