// The claim state every screen of the shell shares (the claim screen itself is src/routes/claim.tsx's).
export { ClaimProvider, useClaim } from "./claim-context";
