/** The chain feature as other features see it: the chain service and the chain's clock. */
export * from "./chain.js";
export * from "./chain-clock.js";
