// Awaiting a promise that must reject, to look at what it rejected with.

/** The rejection of `promise`; throws when it resolves, so a call that should fail cannot pass. */
export async function failure(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}
