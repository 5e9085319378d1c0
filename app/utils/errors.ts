// The one error family of the app. Models and services throw these (they import nothing, so any
// layer may); routes turn them into answers with the one mapper, `errorResponse`, or let
// `withAppErrors` do it. The JSON body is the API's shape ({error, errors?}); screens get the same
// thrown response and GeneralErrorBoundary renders it by status. Messages are translation keys.

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly errors?: FieldErrors,
  ) {
    super(code);
    this.name = new.target.name;
  }
}

/** A record that does not exist or belongs to another organisation: always 404, never 403. */
export class NotFoundError extends AppError {
  constructor() {
    super(404, "not_found");
  }
}

export class ForbiddenError extends AppError {
  constructor(code = "forbidden") {
    super(403, code);
  }
}

/** Input the caller got wrong: 422 with translation keys keyed by payload path ("_" for the whole form). */
export class ValidationError extends AppError {
  declare readonly errors: FieldErrors;
  constructor(errors: FieldErrors, code = "validation_failed") {
    super(422, code, errors);
  }
}

/** The record's state forbids the change (e.g. a measurement inside an inventory). */
export class ConflictError extends AppError {
  constructor(code: string, errors?: FieldErrors) {
    super(409, code, errors);
  }
}

export class BadRequestError extends AppError {
  constructor(code: string, errors?: FieldErrors) {
    super(400, code, errors);
  }
}

function jsonResponse(body: unknown, status: number) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
}

/** The one mapper from an expected failure to its answer; null for anything unexpected (a 500). */
export function errorResponse(error: unknown): Response | null {
  if (!(error instanceof AppError)) return null;
  return jsonResponse(error.errors ? { error: error.code, errors: error.errors } : { error: error.code }, error.status);
}

/** Runs a model call; its expected failures are thrown as their answers, anything else as it is. */
export async function withAppErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw errorResponse(error) ?? error;
  }
}

export function notFound(): never {
  throw errorResponse(new NotFoundError());
}

export function forbidden(code?: string): never {
  throw errorResponse(new ForbiddenError(code));
}

/** A form posted an `intent` no `switch` case knows. */
export function unknownIntent(): never {
  throw errorResponse(new BadRequestError("unknown_intent"));
}

/** Field errors keyed by path from zod issues (the API's 422 body). */
export function issuesToErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[], strip = 0) {
  const errors: FieldErrors = {};
  for (const i of issues) (errors[i.path.slice(strip).map(String).join(".") || "_"] ??= []).push(i.message);
  return errors;
}
