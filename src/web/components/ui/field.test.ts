import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Field, TextField } from "./field";

const render = (props: Parameters<typeof TextField>[0]) =>
  renderToStaticMarkup(createElement(TextField, props));

describe("Field", () => {
  it("binds the label to the control by its id", () => {
    const html = render({ id: "f-name", label: "Name", value: "", onValueChange: () => {} });
    expect(html).toMatch(/<label[^>]* for="f-name"/);
    expect(html).toContain('id="f-name"');
    expect(html).not.toContain("aria-describedby=");
    expect(html).not.toContain("aria-invalid=");
  });

  it("ties the hint and the error to the control, and marks it invalid on an error", () => {
    const html = render({
      id: "f-pw",
      label: "Password",
      hint: "At least 8 characters.",
      error: "Too short",
      value: "",
      onValueChange: () => {},
    });
    expect(html).toContain('aria-describedby="f-pw-hint f-pw-error"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('<p id="f-pw-hint" class="text-xs text-muted-foreground">At least 8');
    expect(html).toContain('<p id="f-pw-error"');
  });

  it("gives a custom control the same id and description", () => {
    const html = renderToStaticMarkup(
      createElement(Field, {
        id: "f-level",
        label: "Level",
        hint: "Pick one",
        children: (control) => createElement("select", control),
      }),
    );
    expect(html).toContain('<select id="f-level" aria-describedby="f-level-hint">');
  });
});
