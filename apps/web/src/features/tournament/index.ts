export { TournamentPromo } from "./TournamentPromo";
