import { describe, expect, it } from "vitest";
import {
  BadRequestError,
  ConflictError,
  errorResponse,
  ForbiddenError,
  issuesToErrors,
  notFound,
  NotFoundError,
  unknownIntent,
  ValidationError,
  withAppErrors,
} from "./errors";

async function answer(response: Response | null) {
  return { status: response?.status, body: await response?.json() };
}

describe("the one error family", () => {
  it("maps each expected failure to its status and the API's body", async () => {
    expect(await answer(errorResponse(new NotFoundError()))).toEqual({ status: 404, body: { error: "not_found" } });
    expect(await answer(errorResponse(new ForbiddenError("built_in")))).toEqual({
      status: 403,
      body: { error: "built_in" },
    });
    expect(
      await answer(errorResponse(new ValidationError({ "user.name": ["accounts:settings.nameRequired"] }))),
    ).toEqual({
      status: 422,
      body: { error: "validation_failed", errors: { "user.name": ["accounts:settings.nameRequired"] } },
    });
    expect(await answer(errorResponse(new ConflictError("locked", { _: ["timber:detail.locked"] })))).toEqual({
      status: 409,
      body: { error: "locked", errors: { _: ["timber:detail.locked"] } },
    });
    expect(await answer(errorResponse(new BadRequestError("unknown_intent")))).toEqual({
      status: 400,
      body: { error: "unknown_intent" },
    });
  });

  it("leaves anything unexpected alone (a 500 with the request id, never its message)", () => {
    expect(errorResponse(new Error("boom"))).toBeNull();
    expect(errorResponse("text")).toBeNull();
  });

  it("withAppErrors throws the answer of an expected failure and rethrows the rest", async () => {
    const thrown = await withAppErrors(() => Promise.reject(new NotFoundError())).catch((e) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect(thrown.status).toBe(404);
    const boom = new Error("boom");
    await expect(withAppErrors(() => Promise.reject(boom))).rejects.toBe(boom);
    expect(await withAppErrors(() => Promise.resolve(7))).toBe(7);
  });

  it("notFound and unknownIntent throw their responses", () => {
    const thrownBy = (fn: () => never) => {
      try {
        fn();
      } catch (response) {
        return response as Response;
      }
      throw new Error("did not throw");
    };
    expect(thrownBy(notFound).status).toBe(404);
    expect(thrownBy(unknownIntent).status).toBe(400);
  });

  it("keys zod issues by path, optionally without the payload's wrapper", () => {
    const issues = [
      { path: ["invite", "email"], message: "a" },
      { path: ["invite", "email"], message: "b" },
      { path: [], message: "c" },
    ];
    expect(issuesToErrors(issues)).toEqual({ "invite.email": ["a", "b"], _: ["c"] });
    expect(issuesToErrors(issues, 1)).toEqual({ email: ["a", "b"], _: ["c"] });
  });
});
