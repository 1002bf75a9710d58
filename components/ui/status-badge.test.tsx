import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AccountStatusBadge, TransactionStatusBadge } from "./status-badge";

// No DOM test environment in this project: rendered to HTML (react-dom/server) and the markup checked.
describe("status badges", () => {
  it.each([
    ["completed", "Completed"],
    ["pending", "Pending"],
    ["failed", "Failed"],
  ] as const)("says a %s transaction in words, with a shape, under the e2e test id", (status, label) => {
    const html = renderToStaticMarkup(<TransactionStatusBadge status={status} />);
    expect(html).toContain('data-testid="status-badge"');
    expect(html).toMatch(/<svg aria-hidden="true"[^>]*><path d="[^"]+"/);
    expect(html).toMatch(new RegExp(`</svg>${label}</span>$`));
  });

  it("says whether an account is active in words", () => {
    expect(renderToStaticMarkup(<AccountStatusBadge isActive />)).toMatch(/<\/svg>Active<\/span>$/);
    expect(renderToStaticMarkup(<AccountStatusBadge isActive={false} />)).toMatch(/<\/svg>Inactive<\/span>$/);
  });
});
