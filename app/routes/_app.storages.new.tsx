import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { StorageEditor } from "~/components/timber/storage-editor";
import { storageEditorAction, storageEditorLoader } from "~/components/timber/storage-editor.server";

export const handle = { i18n: ["timber"] };
export const loader = ({ request }: LoaderFunctionArgs) => storageEditorLoader(request, null);
export const action = ({ request }: ActionFunctionArgs) => storageEditorAction(request, null);
export default StorageEditor;
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
