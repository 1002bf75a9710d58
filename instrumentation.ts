// Runs once before the server takes requests. The Node.js part (configuration check) lives in its own module, as
// Next's docs recommend, so the Edge build never sees Node APIs.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./instrumentation-node");
}
