export { PriceCard } from "./PriceCard";
