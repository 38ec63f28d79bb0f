import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import type { i18n as I18n } from "i18next";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { BrowserRouter, useRoutes } from "react-router";
import { ServicesProvider, type Services } from "./lib/services";
import { routes } from "./router";

interface AppProps {
  services: Services;
  queryClient: QueryClient;
  i18n: I18n;
  /** Tests pass a MemoryRouter-like wrapper; the app uses the browser's history. */
  Router?: (props: { children: ReactNode }) => ReactNode;
}

function AppRoutes() {
  return useRoutes(routes);
}

export function App({ services, queryClient, i18n, Router = BrowserRouter }: AppProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ServicesProvider services={services}>
          <Router>
            <AppRoutes />
          </Router>
        </ServicesProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
