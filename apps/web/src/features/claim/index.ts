// The claim screen (src/routes/claim.tsx), and the claim state every screen of the shell shares.
export { ClaimScreen } from "./ClaimScreen";
export { ClaimProvider, useClaim } from "./claim-context";
