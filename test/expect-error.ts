import { FleetApiError } from "@/lib/fleet-api/errors";

/** The FleetApiError a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<FleetApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FleetApiError) return error;
    throw error;
  }
  throw new Error("expected a FleetApiError");
}
