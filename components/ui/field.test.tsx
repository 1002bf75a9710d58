import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { describedByIds, Field, FIELD_CLASSES, type FieldProps } from "./field";

// No DOM test environment in this project: the field is rendered to HTML (react-dom/server) and the markup checked.

function render(props: Omit<FieldProps, "children" | "label">): string {
  return renderToStaticMarkup(
    <Field label="Status" {...props}>
      {(control) => <select {...control} />}
    </Field>,
  );
}

describe("Field", () => {
  it("labels its control", () => {
    const html = render({ id: "status" });
    expect(html).toContain('<label for="status"');
    expect(html).toContain(`<select id="status" class="${FIELD_CLASSES}"></select>`);
    expect(html).not.toContain("aria-describedby");
    expect(html).not.toContain("aria-invalid");
  });

  it("generates an id when none is given", () => {
    const html = render({});
    const id = /<label for="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`<select id="${String(id)}"`);
  });

  it("describes the control by its hint, its error and shared descriptions, and marks it invalid", () => {
    const html = render({ id: "status", hint: "Pick one", error: "Not a status", describedBy: "bar-hint" });
    expect(html).toContain('aria-describedby="status-hint status-error bar-hint"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toMatch(/<p id="status-hint"[^>]*>Pick one<\/p>/);
    expect(html).toMatch(/<p id="status-error"[^>]*>Not a status<\/p>/);
  });

  it("takes other control classes", () => {
    expect(render({ id: "s", controlClassName: "mine" })).toContain('<select id="s" class="mine">');
  });
});

describe("describedByIds", () => {
  it("joins the ids present, or is undefined", () => {
    expect(describedByIds(["a", null, undefined, "", "b"])).toBe("a b");
    expect(describedByIds([null, undefined])).toBeUndefined();
  });
});
