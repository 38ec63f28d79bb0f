import { act, render, type RenderResult } from "@testing-library/react";
import { vi } from "vitest";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router";
import { App } from "../src/App";
import { i18next } from "../src/i18n";
import { createQueryClient } from "../src/lib/query-client";
import { createFakes, seedSignedIn, type FakeOptions, type Fakes } from "./fakes";

export interface AppHarness extends RenderResult {
  fakes: Fakes;
  location: () => { pathname: string; search: string; key: string };
}

/** Renders the whole app (layout, routes, providers) on `path` with fake services. */
export function renderApp({
  path = "/",
  signedIn = false,
  verified = false,
  options = {},
}: { path?: string; signedIn?: boolean; verified?: boolean; options?: FakeOptions } = {}): AppHarness {
  if (signedIn) seedSignedIn({ verified });
  const fakes = createFakes(options);
  let current = { pathname: "", search: "", key: "" };
  function LocationProbe() {
    const location = useLocation();
    current = location;
    return null;
  }
  function Router({ children }: { children: ReactNode }) {
    return (
      <MemoryRouter initialEntries={[path]}>
        {children}
        <LocationProbe />
      </MemoryRouter>
    );
  }
  const queryClient = createQueryClient();
  const result = render(<App services={fakes.services} queryClient={queryClient} i18n={i18next} Router={Router} />);
  return { ...result, fakes, location: () => current };
}

/** Lets pending promises and React updates settle (with fake timers too). */
export async function flush(ms = 0): Promise<void> {
  await act(async () => {
    if (ms > 0) await vi.advanceTimersByTimeAsync(ms);
    else await Promise.resolve();
  });
}
