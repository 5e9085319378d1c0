import { useFormAction, useNavigation } from "@remix-run/react";

export function getErrorMessage(error: unknown) {
  if (typeof error === "string") return error;
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string")
    return error.message;
  return "Unknown error";
}

/** True while this route's form is submitting (to disable its buttons). */
export function useIsPending({ formAction, formMethod = "POST" }: { formAction?: string; formMethod?: string } = {}) {
  const contextual = useFormAction();
  const navigation = useNavigation();
  return (
    navigation.state !== "idle" &&
    navigation.formAction === (formAction ?? contextual) &&
    navigation.formMethod === formMethod
  );
}

export function cx(...classes: Array<string | false | null | undefined>) {
  return classes.filter(Boolean).join(" ");
}
