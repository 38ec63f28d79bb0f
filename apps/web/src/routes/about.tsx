import { AboutScreen } from "../features/about/AboutScreen";

export default function AboutRoute() {
  return <AboutScreen />;
}
