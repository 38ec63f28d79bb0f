export { SignInButton } from "./SignInButton";
export { useSession, type SignedInUser } from "./use-session";
