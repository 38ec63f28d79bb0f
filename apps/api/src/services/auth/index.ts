/** The auth feature as other features see it: sessions and wallet signature checks. */
export * from "./auth.js";
export * from "./signatures.js";
