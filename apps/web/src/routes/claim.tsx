import { ClaimScreen } from "../features/claim";

export function ClaimRoute() {
  return <ClaimScreen />;
}
