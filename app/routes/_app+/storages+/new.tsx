import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { StorageEditor } from "./__storage-editor";
import { storageEditorAction, storageEditorLoader } from "./__storage-editor.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

export const handle = { i18n: ["timber", "lookups"] };
export const loader = ({ request }: LoaderFunctionArgs) => storageEditorLoader(request, null);
export const action = ({ request }: ActionFunctionArgs) => storageEditorAction(request, null);
export default StorageEditor;
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
