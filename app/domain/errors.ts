/** Typed errors thrown by the measurement math, so callers can map them to form messages. */

export class DomainInputError extends Error {
  constructor(
    message: string,
    readonly input: string,
  ) {
    super(message);
    this.name = "DomainInputError";
  }
}

/** A formula needs an input the log does not have (e.g. huber without midDiameterCm). */
export class MissingInputError extends DomainInputError {
  constructor(
    input: string,
    readonly formula?: string,
  ) {
    super(formula ? `${formula} needs ${input}` : `missing ${input}`, input);
    this.name = "MissingInputError";
  }
}

/** An input is present but not a finite, non-negative number (or otherwise out of range). */
export class InvalidInputError extends DomainInputError {
  constructor(
    input: string,
    readonly value: unknown,
    reason = "must be a finite number >= 0",
  ) {
    super(`${input} ${reason} (got ${String(value)})`, input);
    this.name = "InvalidInputError";
  }
}

export function requireNonNegative(input: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new InvalidInputError(input, value);
  }
  return value;
}

export function requireFraction(input: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidInputError(input, value, "must be between 0 and 1");
  }
  return value;
}
