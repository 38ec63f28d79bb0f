import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { SlideToClaim, THUMB_SIZE_PX } from "../src/features/claim/SlideToClaim";

function renderSlider(props: { disabled?: boolean; onComplete?: () => void } = {}) {
  const onComplete = props.onComplete ?? vi.fn();
  render(<SlideToClaim label="Slide to claim" ariaLabel="Claim" disabled={props.disabled ?? false} onComplete={onComplete} />);
  return { thumb: screen.getByRole("slider", { name: "Claim" }), onComplete };
}

describe("slide to claim", () => {
  it("has a 76 px thumb", () => {
    const { thumb } = renderSlider();
    expect(THUMB_SIZE_PX).toBe(76);
    expect(thumb.style.width).toBe("76px");
    expect(thumb.style.height).toBe("76px");
  });

  it("released at the end with a mouse, it claims once and stays at 100%", () => {
    const { thumb, onComplete } = renderSlider();
    fireEvent.pointerDown(thumb, { clientX: 0, pointerType: "mouse" });
    fireEvent.pointerMove(window, { clientX: 120, pointerType: "mouse" });
    expect(Number(thumb.getAttribute("aria-valuenow"))).toBeGreaterThan(0);
    expect(Number(thumb.getAttribute("aria-valuenow"))).toBeLessThan(100);
    fireEvent.pointerMove(window, { clientX: 5000, pointerType: "mouse" });
    fireEvent.pointerUp(window, { pointerType: "mouse" });
    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(thumb).toHaveAttribute("aria-valuenow", "100");
  });

  it("released short of the end, it springs back and does not claim", () => {
    const { thumb, onComplete } = renderSlider();
    fireEvent.pointerDown(thumb, { clientX: 0, pointerType: "mouse" });
    fireEvent.pointerMove(window, { clientX: 200, pointerType: "mouse" });
    expect(thumb.getAttribute("aria-valuenow")).not.toBe("100");
    fireEvent.pointerUp(window, { pointerType: "mouse" });
    expect(onComplete).not.toHaveBeenCalled();
    expect(thumb).toHaveAttribute("aria-valuenow", "0");
  });

  it("works with a finger (touch events)", () => {
    const { thumb, onComplete } = renderSlider();
    fireEvent.touchStart(thumb, { touches: [{ clientX: 5 }] });
    fireEvent.touchMove(thumb, { touches: [{ clientX: 9999 }] });
    fireEvent.touchEnd(thumb, { touches: [] });
    expect(onComplete).toHaveBeenCalledTimes(1);
  });

  it("a touch that stops halfway resets", () => {
    const { thumb, onComplete } = renderSlider();
    fireEvent.touchStart(thumb, { touches: [{ clientX: 5 }] });
    fireEvent.touchMove(thumb, { touches: [{ clientX: 60 }] });
    fireEvent.touchEnd(thumb, { touches: [] });
    expect(onComplete).not.toHaveBeenCalled();
    expect(thumb).toHaveAttribute("aria-valuenow", "0");
  });

  it("works from the keyboard: arrows move it, reaching the end claims, Home goes back", async () => {
    const { thumb, onComplete } = renderSlider();
    thumb.focus();
    await userEvent.keyboard("{ArrowRight}{ArrowRight}");
    expect(thumb).toHaveAttribute("aria-valuenow", "20");
    await userEvent.keyboard("{Home}");
    expect(thumb).toHaveAttribute("aria-valuenow", "0");
    expect(onComplete).not.toHaveBeenCalled();
    await userEvent.keyboard("{Enter}");
    expect(onComplete).toHaveBeenCalledTimes(1);
  });

  it("does nothing while disabled", async () => {
    const { thumb, onComplete } = renderSlider({ disabled: true });
    expect(thumb).toHaveAttribute("aria-disabled", "true");
    fireEvent.pointerDown(thumb, { clientX: 0, pointerType: "mouse" });
    fireEvent.pointerMove(window, { clientX: 5000, pointerType: "mouse" });
    fireEvent.pointerUp(window, { pointerType: "mouse" });
    thumb.focus();
    await userEvent.keyboard("{End}");
    expect(onComplete).not.toHaveBeenCalled();
    expect(thumb).toHaveAttribute("aria-valuenow", "0");
  });

  it("goes back to the start when enabled again after a claim", () => {
    function Harness() {
      const [disabled, setDisabled] = useState(false);
      return (
        <>
          <SlideToClaim label="Slide" ariaLabel="Claim" disabled={disabled} onComplete={() => setDisabled(true)} />
          <button type="button" onClick={() => setDisabled(false)}>
            enable
          </button>
        </>
      );
    }
    render(<Harness />);
    const thumb = screen.getByRole("slider");
    fireEvent.pointerDown(thumb, { clientX: 0, pointerType: "mouse" });
    fireEvent.pointerMove(window, { clientX: 5000, pointerType: "mouse" });
    fireEvent.pointerUp(window, { pointerType: "mouse" });
    expect(thumb).toHaveAttribute("aria-valuenow", "100");
    fireEvent.click(screen.getByRole("button", { name: "enable" }));
    expect(thumb).toHaveAttribute("aria-valuenow", "0");
  });
});
