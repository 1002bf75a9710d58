// Runs once before the server takes requests: the configuration is parsed here so bad values stop the start with
// every problem named, instead of failing on the first request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getConfig } = await import("@/lib/bff/config");
  getConfig(); // throws ConfigError listing every problem; Next then refuses to start
}
