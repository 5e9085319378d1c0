import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { parseId } from "~/utils/api.server";
import { StorageEditor } from "./__storage-editor";
import { storageEditorAction, storageEditorLoader } from "./__storage-editor.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

export const handle = { i18n: ["timber", "lookups", "public"] };
export const loader = ({ request, params }: LoaderFunctionArgs) => storageEditorLoader(request, parseId(params.id));
export const action = ({ request, params }: ActionFunctionArgs) => storageEditorAction(request, parseId(params.id));
export default StorageEditor;
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
