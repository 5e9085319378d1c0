import { useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useRealtime } from "./use-realtime";

/**
 * Reloads the page's data when `event` is published on `channel`, but only once no navigation
 * or reload is under way. A reload started in the middle of a form's redirect would cancel the
 * redirect's own loads and take the toast cookie they were about to read (the alert of "Generate
 * report" vanished when its job ended that fast); waiting for idle keeps both.
 */
export function useLiveRevalidate(channel: string | null, event: string) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const [due, setDue] = useState(false);
  useRealtime(channel, event, () => setDue(true));
  useEffect(() => {
    if (due && navigation.state === "idle" && revalidator.state === "idle") {
      setDue(false);
      revalidator.revalidate();
    }
  }, [due, navigation.state, revalidator]);
}
