import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { DEFAULT_POLLS, USER } from "./fakes";
import { renderApp } from "./render-app";

const openPoll = () => screen.getByRole("article", { name: "Which partner app should ORO add next?" });
const closedPoll = () => screen.getByRole("article", { name: "Should the daily claim come with a reminder?" });

describe("polls", () => {
  it("signed out: results as counts and percentages, nothing to press, a sign-in button", async () => {
    renderApp({ path: "/polls" });
    await screen.findByRole("article", { name: "Which partner app should ORO add next?" });
    expect(openPoll()).toHaveTextContent("A game60% · 12 votes");
    expect(openPoll()).toHaveTextContent("A news app10% · 2 votes");
    expect(openPoll()).toHaveTextContent("20 votes in total");
    expect(within(openPoll()).queryAllByRole("button")).toHaveLength(0);
    expect(screen.getByRole("button", { name: "Sign in to claim" })).toBeInTheDocument();
  });

  it("signed in: votes, then changes the vote while the poll is open; the counts follow", async () => {
    const app = renderApp({ path: "/polls", signedIn: true });
    const savings = await within(await screen.findByRole("article", { name: "Which partner app should ORO add next?" })).findByRole("button", { name: /A savings app/ });
    expect(savings).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(savings);
    await waitFor(() => expect(within(openPoll()).getByRole("button", { name: /A savings app/ })).toHaveAttribute("aria-pressed", "true"));
    expect(openPoll()).toHaveTextContent("A savings app · your vote33% · 7 votes");
    expect(openPoll()).toHaveTextContent("21 votes in total");
    const vote = app.fakes.calls.find((call) => call.name === "votePoll");
    expect(vote?.args).toEqual([USER, DEFAULT_POLLS[0]?.id, DEFAULT_POLLS[0]?.options[1]?.id, "en"]);

    await userEvent.click(within(openPoll()).getByRole("button", { name: /A news app/ }));
    await waitFor(() => expect(within(openPoll()).getByRole("button", { name: /A news app/ })).toHaveAttribute("aria-pressed", "true"));
    expect(within(openPoll()).getByRole("button", { name: /A savings app/ })).toHaveAttribute("aria-pressed", "false");
    expect(openPoll()).toHaveTextContent("A savings app29% · 6 votes");
    expect(openPoll()).toHaveTextContent("21 votes in total");
  });

  it("a closed poll is read-only and shows the user's vote", async () => {
    renderApp({ path: "/polls", signedIn: true });
    await screen.findByRole("article", { name: "Should the daily claim come with a reminder?" });
    expect(within(closedPoll()).getByText("Closed")).toBeInTheDocument();
    expect(within(closedPoll()).queryAllByRole("button")).toHaveLength(0);
    expect(closedPoll()).toHaveTextContent("Yes · your vote75% · 30 votes");
  });

  it.each([
    ["POLL_CLOSED", "This poll has closed: your vote was not counted."],
    ["OPTION_NOT_FOUND", "That answer is no longer in this poll."],
    ["NOT_VERIFIED_HUMAN", "Only verified humans who have claimed ORO can vote."],
    ["SOMETHING_ELSE", "Your vote could not be sent. Please try again."],
  ])("a vote refused with %s says so next to the poll, and the screen stays usable", async (voteError, message) => {
    renderApp({ path: "/polls", signedIn: true, options: { voteError } });
    await userEvent.click(await within(await screen.findByRole("article", { name: "Which partner app should ORO add next?" })).findByRole("button", { name: /A game/ }));
    expect(await within(openPoll()).findByRole("alert")).toHaveTextContent(message);
    expect(within(openPoll()).getByRole("button", { name: /A game/ })).toHaveAttribute("aria-pressed", "false");
    expect(within(openPoll()).getByRole("button", { name: /A game/ })).toBeEnabled();
    expect(openPoll()).toHaveTextContent("20 votes in total");
  });

  it("shows an empty state when there are no polls", async () => {
    renderApp({ path: "/polls", options: { polls: [] } });
    expect(await screen.findByText("No polls right now.")).toBeInTheDocument();
  });
});
