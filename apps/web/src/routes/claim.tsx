import { ClaimScreen } from "../features/claim/ClaimScreen";

export function ClaimRoute() {
  return <ClaimScreen />;
}
