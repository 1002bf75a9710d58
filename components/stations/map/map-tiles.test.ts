import { describe, expect, it } from "vitest";

import { escapeHtml, tileHost } from "./map-tiles";

describe("the tile layer's attribution", () => {
  it("escapes the operator's text, which Leaflet writes as HTML", () => {
    expect(escapeHtml(`<b>"Tiles" & 'co'</b>`)).toBe("&#60;b&#62;&#34;Tiles&#34; &#38; &#39;co&#39;&#60;/b&#62;");
  });

  it("names the tile server's host when the operator gave no attribution", () => {
    expect(tileHost("https://{s}.tiles.example.com/{z}/{x}/{y}.png")).toBe("Tiles: tiles.example.com");
    expect(tileHost("not a url")).toBe("Tiles");
  });
});
