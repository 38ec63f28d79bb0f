/** The indexer's HTTP answers are written once, in @oro/clients, which the API's indexer client reads them by. */
export type * from "@oro/clients/indexer-api";
